import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseTape } from '../../src/index.js';
import {
  importBirdeye,
  importDune,
  importFlipside,
  importHelius,
  importProviderFile,
  importProviderText,
  parsePriceSeries,
  parseQuoteAssets,
  readExportFile,
  readExportTable,
} from '../../src/import.js';

const T = 1_710_064_800; // 2024-03-10 10:00:00 UTC
const WSOL = 'So11111111111111111111111111111111111111112';
const USDC_SOL = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
const WETH = '0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2';
const USDC_ETH = '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48';
// SOL is $150 and ETH $3800 from T on.
const solUsd = parsePriceSeries(`${T},150\n`, 'sol.tsv');
const ethUsd = parsePriceSeries(`${T},3800\n`, 'eth.tsv');

const csv = (...lines: string[]): string => `${lines.join('\n')}\n`;

describe('importDune', () => {
  it("writes the tape in time order, then by the order columns, then file order, whatever the export's order", () => {
    const row = (second: number, index: string, wallet: string): string =>
      `solana,2024-03-10 10:00:0${second}.000 UTC,${wallet},TOK1,${WSOL},TOK,SOL,100,1,150,h${wallet},${index}`;
    const header =
      'blockchain,block_time,trader_id,token_bought_mint_address,token_sold_mint_address,token_bought_symbol,token_sold_symbol,token_bought_amount,token_sold_amount,amount_usd,tx_id,tx_index';
    // Newest first (as a query ordered by block_time desc gives it); in second 1, tx_index 2
    // before 1, and two rows with the same tx_index kept in file order.
    const newestFirst = csv(
      header,
      row(2, '0', 'W1'),
      row(1, '2', 'W2'),
      row(1, '1', 'W3'),
      row(1, '1', 'W4'),
      row(0, '5', 'W5'),
    );
    const inOrder = csv(
      header,
      row(0, '5', 'W5'),
      row(1, '1', 'W3'),
      row(1, '1', 'W4'),
      row(1, '2', 'W2'),
      row(2, '0', 'W1'),
    );
    const wallets = (text: string): string[] =>
      importDune(readExportTable(text, 'dune.csv'), 'dune.csv').tape.swaps.map((s) => s.wallet);
    expect(wallets(newestFirst)).toEqual(['W5', 'W3', 'W4', 'W2', 'W1']);
    expect(wallets(inOrder)).toEqual(['W5', 'W3', 'W4', 'W2', 'W1']);
  });

  it('reads dex.trades: the quote leg decides buy or sell, USD from amount_usd else WETH × ETH/USD', () => {
    const text = csv(
      'blockchain,block_time,taker,token_bought_address,token_sold_address,token_bought_symbol,token_sold_symbol,token_bought_amount,token_sold_amount,amount_usd,tx_hash,evt_index',
      // Sold WETH, bought TOK: a buy of 1000 TOK for $1950 → $1.95 a token.
      'ethereum,2024-03-10 10:00:00.000 UTC,0xAAA,0xTOK,0xC02aaa39b223FE8D0A0e5C4F27eAD9083C756Cc2,TOK,WETH,1000,0.5,1950,0xh1,3',
      // Sold 400 TOK for 0.25 WETH, no amount_usd: 0.25 × 3800 = $950 → $2.375 a token.
      `ethereum,2024-03-10 10:00:05.000 UTC,0xBBB,${WETH},0xTOK,WETH,TOK,0.25,400,,0xh2,1`,
      // WETH for USDC: both legs are money.
      `ethereum,2024-03-10 10:00:06.000 UTC,0xCCC,${USDC_ETH},${WETH},USDC,WETH,1900,0.5,1900,0xh3,1`,
      // A row of another chain.
      'base,2024-03-10 10:00:07.000 UTC,0xDDD,0xTOK,0x4200000000000000000000000000000000000006,TOK,WETH,1,1,1,0xh4,1',
    );
    const { tape, report } = importDune(readExportTable(text, 'dune.csv'), 'dune.csv', { ethUsd });
    // The same file read in pieces, through the library's file readers, gives the same import.
    const dir = mkdtempSync(join(tmpdir(), 'copysim-dune-'));
    try {
      writeFileSync(join(dir, 'dune.csv'), text);
      expect(importDune(readExportFile(join(dir, 'dune.csv'), 'dune.csv', 'dune'), 'dune.csv', { ethUsd })).toEqual({
        tape,
        report,
      });
      expect(importProviderFile('dune', join(dir, 'dune.csv'), { ethUsd })).toEqual(
        importProviderText('dune', text, 'dune.csv', { ethUsd }),
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    expect(tape.network).toBe('eth');
    expect(tape.swaps).toEqual([
      {
        wallet: '0xaaa',
        token: '0xtok',
        type: 'buy',
        time: T,
        quantity: '1000',
        usd_price: '1.95',
        usd_amount: '1950',
        usd_liquidity: null,
        transaction_hash: '0xh1',
      },
      {
        wallet: '0xbbb',
        token: '0xtok',
        type: 'sell',
        time: T + 5,
        quantity: '400',
        usd_price: '2.375',
        usd_amount: '950',
        usd_liquidity: null,
        transaction_hash: '0xh2',
      },
    ]);
    expect(tape.tokens).toEqual({ '0xtok': { name: null, symbol: 'TOK' } });
    expect(report.dropped.map((d) => [d.reason, d.count, d.examples])).toEqual([
      // Rows are carried as numbers and named as the file's lines (the header is line 1).
      ['both legs are quote assets (e.g. SOL for USDC): not a token trade', 1, ['dune.csv line 4']],
      ['blockchain "base" is not the tape\'s network (eth)', 1, ['dune.csv line 5']],
    ]);
    expect(() => parseTape(tape)).not.toThrow();
  });

  it('reads dex_solana.trades (trader_id, mint addresses, tx_id): SOL × SOL/USD, USDC at one dollar', () => {
    const text = csv(
      'blockchain,block_time,trader_id,token_bought_mint_address,token_sold_mint_address,token_bought_amount,token_sold_amount,amount_usd,tx_id',
      // 2 SOL for 500 MINT: 2 × 150 = $300 → $0.6 a token.
      `solana,2024-03-10 10:00:00.000 UTC,W1,MINT,${WSOL},500,2,,sig1`,
      // 100 MINT for 30 USDC: a sell at $0.3.
      `solana,2024-03-10 10:01:00.000 UTC,W1,${USDC_SOL},MINT,30,100,,sig2`,
    );
    const { tape } = importDune(readExportTable(text, 'sol.csv'), 'sol.csv', { solUsd });
    expect(tape.swaps.map((s) => [s.type, s.quantity, s.usd_price, s.usd_amount, s.transaction_hash])).toEqual([
      ['buy', '500', '0.6', '300', 'sig1'],
      ['sell', '100', '0.3', '30', 'sig2'],
    ]);
    expect(tape.native_prices).toEqual([[T, '150']]);
  });

  it('drops a row whose price or amount a tape cannot hold, as every importer does', () => {
    const text = csv(
      'blockchain,block_time,taker,token_bought_address,token_sold_address,token_bought_symbol,token_sold_symbol,token_bought_amount,token_sold_amount,amount_usd,tx_hash',
      `ethereum,2024-03-10 10:00:00.000 UTC,0xAAA,0xTOK,${WETH},TOK,WETH,1000,0.5,1950,0xh1`,
      // $1e70 for 1000 tokens: a price of 1e67, past the tape's 1e60.
      `ethereum,2024-03-10 10:00:01.000 UTC,0xAAA,0xTOK,${WETH},TOK,WETH,1000,0.5,1e70,0xh2`,
      // The same written out in plain digits (the form most amounts take), and a price of 1e-63.
      `ethereum,2024-03-10 10:00:02.000 UTC,0xAAA,0xTOK,${WETH},TOK,WETH,1000,0.5,1${'0'.repeat(70)},0xh3`,
      `ethereum,2024-03-10 10:00:03.000 UTC,0xAAA,0xTOK,${WETH},TOK,WETH,1${'0'.repeat(63)},0.5,1,0xh4`,
    );
    const { tape, report } = importDune(readExportTable(text, 'big.csv'), 'big.csv', { ethUsd, outlierFactor: 0 });
    expect(tape.swaps.map((s) => s.transaction_hash)).toEqual(['0xh1']);
    expect(report.dropped).toEqual([
      {
        reason: "usd_price 1e+67 is outside the tape's range (1e-60 to 1e60)",
        count: 2,
        examples: ['big.csv line 3', 'big.csv line 4'],
      },
      { reason: "quantity 1e+63 is outside the tape's range (1e-60 to 1e60)", count: 1, examples: ['big.csv line 5'] },
    ]);
    expect(() => parseTape(tape)).not.toThrow();
  });

  it('reads the legacy form by symbol, token_a bought by trader_a, and drops aggregator repeats', () => {
    const text = csv(
      'block_time,token_a_symbol,token_b_symbol,token_a_amount,token_b_amount,project,category,usd_amount,trader_a',
      // trader_a bought 4000 APE for 16 WETH worth $60000 → $15 an APE.
      '2024-03-10T10:00:00+00:00,APE,WETH,4000,16,Uniswap,DEX,60000,\\x56178a0d5f301baf6cf3e1cd53d9863437345bf9',
      '2024-03-10T10:00:00+00:00,APE,WETH,4000,16,0x API,Aggregator,60000,\\x56178a0d5f301baf6cf3e1cd53d9863437345bf9',
    );
    const { tape, report } = importDune(readExportTable(text, 'legacy.csv'), 'legacy.csv');
    expect(tape.swaps).toEqual([
      {
        wallet: '0x56178a0d5f301baf6cf3e1cd53d9863437345bf9',
        token: 'APE',
        type: 'buy',
        time: T,
        quantity: '4000',
        usd_price: '15',
        usd_amount: '60000',
        usd_liquidity: null,
      },
    ]);
    expect(report.dropped).toEqual([
      {
        reason: 'aggregator row: the same trade appears again as its DEX row',
        count: 1,
        examples: ['legacy.csv line 3'],
      },
    ]);
    expect(report.notes.join(' ')).toMatch(/tokens are named by their symbol; no transaction hashes/);
  });

  it('refuses raw amounts alone, a missing column, and a file with nothing usable, naming why', () => {
    const raw = csv(
      'blockchain,tx_hash,token_bought_address,token_sold_address,token_bought_amount_raw,token_sold_amount_raw',
      'ethereum,0x1,0xa,0xb,1,2',
    );
    expect(() => importDune(readExportTable(raw, 'raw.csv'), 'raw.csv')).toThrow(
      /raw.csv: only raw amounts .* cannot be turned into token amounts/,
    );
    const noTrader = csv(
      'blockchain,block_time,token_bought_address,token_sold_address,token_bought_amount,token_sold_amount',
      'solana,1,a,b,1,1',
    );
    expect(() => importDune(readExportTable(noTrader, 'x.csv'), 'x.csv')).toThrow(
      /x.csv: no trader column \(taker or trader_id or user or tx_from\); the file has blockchain, block_time/,
    );
    // A SOL buy without amount_usd and without `solUsd`: nothing usable, exit 1 in the CLI.
    const unpriced = csv(
      'blockchain,block_time,user,token_bought_address,token_sold_address,token_bought_amount,token_sold_amount',
      `solana,${T},W,MINT,${WSOL},10,1`,
    );
    expect(() => importDune(readExportTable(unpriced, 'u.csv'), 'u.csv')).toThrow(
      /u.csv: nothing usable: 1 rows read, none kept \(1 no USD value in the export and no `solUsd` series for its SOL leg\)/,
    );
  });

  it('reads a CSV with a byte-order mark and semicolons, and the API JSON answer', () => {
    const header =
      'blockchain;block_time;user;token_bought_address;token_sold_address;token_bought_amount;token_sold_amount;amount_usd';
    const text = `\uFEFF${csv(header, `solana;2024-03-10 10:00:00 UTC;W;MINT;${WSOL};10;1;150`)}`;
    expect(importDune(readExportTable(text, 'bom.csv'), 'bom.csv').tape.swaps[0]).toMatchObject({
      wallet: 'W',
      quantity: '10',
      usd_price: '15',
    });
    const json = JSON.stringify({
      result: {
        rows: [
          {
            blockchain: 'solana',
            block_time: '2024-03-10 10:00:00.000 UTC',
            user: 'W',
            token_bought_address: 'MINT',
            token_sold_address: WSOL,
            token_bought_amount: 10,
            token_sold_amount: 1,
            amount_usd: 150,
          },
        ],
      },
    });
    expect(importDune(readExportTable(json, 'api.json'), 'api.json').tape.swaps[0]).toMatchObject({
      time: T,
      usd_price: '15',
    });
    expect(() => readExportTable('{"error":"Query execution failed"}', 'err.json')).toThrow(
      /err.json: the file is the provider's error answer, not data: Query execution failed/,
    );
  });

  it('takes another quote list with --quote-assets', () => {
    const text = csv(
      'blockchain,block_time,user,token_bought_address,token_sold_address,token_bought_amount,token_sold_amount,amount_usd',
      `solana,${T},W,A,B,10,5,20`,
    );
    // Neither A nor B is money by default; with B as a dollar, 10 A for 5 B is a buy at $2 (the export's $20 / 10).
    expect(() => importDune(readExportTable(text, 'q.csv'), 'q.csv')).toThrow(/neither leg is a quote asset/);
    const { tape } = importDune(readExportTable(text, 'q.csv'), 'q.csv', {
      quoteAssets: parseQuoteAssets('B:BUSD:usd'),
    });
    expect(tape.swaps[0]).toMatchObject({ token: 'A', type: 'buy', usd_price: '2' });
  });
});

describe('importFlipside', () => {
  it('reads ez_dex_swaps on EVM: in is sold, amount_in_usd the value', () => {
    const text = csv(
      'block_timestamp,tx_hash,origin_from_address,token_in,symbol_in,amount_in,amount_in_usd,token_out,symbol_out,amount_out,amount_out_usd,event_index',
      // 100.5 USDC in for 40 TOK out: a buy at 100.5 / 40 = $2.5125.
      `2024-03-10T10:00:00.000Z,0xh,0xAbC,${USDC_ETH},USDC,100.5,100.5,0xTok,TOK,40,,2`,
    );
    const { tape } = importFlipside(readExportTable(text, 'ez.csv'), 'ez.csv');
    expect(tape.swaps).toEqual([
      {
        wallet: '0xabc',
        token: '0xtok',
        type: 'buy',
        time: T,
        quantity: '40',
        usd_price: '2.5125',
        usd_amount: '100.5',
        usd_liquidity: null,
        transaction_hash: '0xh',
      },
    ]);
  });

  it('reads ez_dex_swaps on Solana and the fact_swaps seed form; drops failed transactions', () => {
    const ez = csv(
      'block_timestamp,tx_id,swapper,swap_from_mint,swap_from_amount,swap_from_amount_usd,swap_to_mint,swap_to_amount,swap_to_amount_usd',
      // 250 MINT from, 0.5 SOL to: a sell of 250 at 0.5 × 150 = $75 (no USD column values) → $0.3.
      `2024-03-10 10:00:00.000,sig,W,MINT,250,,${WSOL},0.5,`,
    );
    expect(importFlipside(readExportTable(ez, 'ez.csv'), 'ez.csv', { solUsd }).tape.swaps[0]).toMatchObject({
      type: 'sell',
      quantity: '250',
      usd_amount: '75',
      usd_price: '0.3',
    });
    // The seed has no time: rows are placed at `assumeTime`, in file order; a failed one is dropped.
    const seed = csv(
      'tx_id, succeeded, swapper, from_mint, from_amt, to_mint, to_amt',
      `s1,TRUE,W,${USDC_SOL},10,MINT,40`,
      `s2,FALSE,W,${USDC_SOL},10,MINT,40`,
    );
    expect(() => importFlipside(readExportTable(seed, 'seed.csv'), 'seed.csv')).toThrow(
      /none kept \(1 no time \(the export has none; `assumeTime` gives one\); 1 failed transaction \(succeeded is false\)\)/,
    );
    const { tape, report } = importFlipside(readExportTable(seed, 'seed.csv'), 'seed.csv', { assumeTime: T });
    expect(tape.swaps).toEqual([
      {
        wallet: 'W',
        token: 'MINT',
        type: 'buy',
        time: T,
        quantity: '40',
        usd_price: '0.25',
        usd_amount: '10',
        usd_liquidity: null,
        transaction_hash: 's1',
      },
    ]);
    expect(report.notes).toContain(`1 swaps had no time and were placed at ${T} (\`assumeTime\`), in file order`);
  });
});

const swapTx = {
  signature: 'sig1',
  type: 'SWAP',
  timestamp: T,
  slot: 5,
  fee: 5000,
  feePayer: 'W',
  transactionError: null,
  accountData: [],
  // 0.01 SOL in (10,000,000 lamports), 3000 tokens out (3,000,000,000 at 6 decimals).
  events: {
    swap: {
      nativeInput: { account: 'W', amount: '10000000' },
      nativeOutput: null,
      tokenInputs: [],
      tokenOutputs: [{ userAccount: 'P', mint: 'MINT', rawTokenAmount: { tokenAmount: '3000000000', decimals: 6 } }],
    },
  },
};

describe('importHelius', () => {
  it('reads events.swap: 0.01 SOL × $150 = $1.5 for 3000 tokens → $0.0005', () => {
    const { tape } = importHelius([swapTx], 'h.json', { solUsd });
    expect(tape.swaps).toEqual([
      {
        wallet: 'W',
        token: 'MINT',
        type: 'buy',
        time: T,
        quantity: '3000',
        usd_price: '0.0005',
        usd_amount: '1.5',
        usd_liquidity: null,
        transaction_hash: 'sig1',
      },
    ]);
  });

  it("falls back to the wallet's balance changes for UNKNOWN or empty events (fee added back, SOL and wrapped SOL one asset)", () => {
    const balances = {
      ...swapTx,
      signature: 'sig2',
      type: 'UNKNOWN',
      events: {},
      // The wallet's SOL: -5000 lamports, the fee alone; its wrapped SOL -0.02; its MINT +1.
      accountData: [
        { account: 'W', nativeBalanceChange: -5000, tokenBalanceChanges: [] },
        {
          account: 'A1',
          nativeBalanceChange: 0,
          tokenBalanceChanges: [
            { userAccount: 'W', mint: WSOL, rawTokenAmount: { tokenAmount: '-20000000', decimals: 9 } },
          ],
        },
        {
          account: 'A2',
          nativeBalanceChange: 0,
          tokenBalanceChanges: [
            { userAccount: 'W', mint: 'MINT', rawTokenAmount: { tokenAmount: '1000000', decimals: 6 } },
          ],
        },
        {
          account: 'A3',
          nativeBalanceChange: 0,
          tokenBalanceChanges: [
            { userAccount: 'OTHER', mint: 'MINT', rawTokenAmount: { tokenAmount: '-1000000', decimals: 6 } },
          ],
        },
      ],
    };
    // 0.02 SOL × 150 = $3 for 1 token.
    const { tape, report } = importHelius(
      [
        balances,
        { ...swapTx, signature: 's3', type: 'TRANSFER' },
        { ...swapTx, signature: 's4', transactionError: { x: 1 } },
      ],
      'h.json',
      { solUsd },
    );
    expect(tape.swaps).toMatchObject([{ type: 'buy', quantity: '1', usd_price: '3', usd_amount: '3' }]);
    expect(report.dropped.map((d) => d.reason)).toEqual([
      'type TRANSFER is not a swap',
      'failed transaction (transactionError)',
    ]);
  });
});

describe('importBirdeye', () => {
  it('reads camelCase from/to: USD from the quote leg (1.5 SOL × $180 = $270 for 3000 → $0.09)', () => {
    const item = {
      owner: 'W',
      blockUnixTime: T,
      txHash: 'h',
      from: { address: WSOL, symbol: 'SOL', uiAmount: 1.5, price: 180 },
      to: { address: 'MINT', symbol: 'M', uiAmount: 3000, price: 0.1 },
    };
    const { tape } = importBirdeye({ success: true, data: { items: [item] } }, 'b.json');
    expect(tape.swaps).toEqual([
      {
        wallet: 'W',
        token: 'MINT',
        type: 'buy',
        time: T,
        quantity: '3000',
        usd_price: '0.09',
        usd_amount: '270',
        usd_liquidity: null,
        transaction_hash: 'h',
      },
    ]);
  });

  it('reads snake_case base/quote with type_swap, USD from volume_usd (100 sold for $25.2 → $0.252)', () => {
    const item = {
      owner: 'W',
      block_unix_time: T,
      tx_hash: 'h',
      volume_usd: 25.2,
      base: { address: 'MINT', ui_amount: 100, price: 0.25, type_swap: 'from' },
      quote: { address: USDC_SOL, ui_amount: 25, price: 1, type_swap: 'to' },
    };
    expect(importBirdeye({ success: true, data: { items: [item] } }, 'b.json').tape.swaps[0]).toMatchObject({
      type: 'sell',
      quantity: '100',
      usd_price: '0.252',
    });
  });

  it('refuses an error answer, naming the file', () => {
    expect(() => importBirdeye({ success: false, message: 'Unauthorized' }, 'b.json')).toThrow(
      /b.json: the file is the provider's error answer, not data: Unauthorized/,
    );
  });
});
