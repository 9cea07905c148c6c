import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { IMPORT_HELP, importHelp, runImportCommand } from '../../src/cli/import-command.js';
import type { CliIo } from '../../src/cli/io.js';
import { parseTape } from '../../src/index.js';
import { importCsvFile, parseColumnMapping, parseQuoteAssets } from '../../src/import.js';
import { InputError } from '../../src/model/errors.js';
import { optionName } from '../../src/io/import/option-names.js';
import { IMPORTERS, SettingValueError } from '../../src/io/import/registry.js';
import type { Importer } from '../../src/io/import/types.js';

const dir = mkdtempSync(join(tmpdir(), 'copysim-registry-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const trades = join(dir, 'trades.csv');
writeFileSync(
  trades,
  'who,what,side,when,qty,usd\nW1,T1,buy,2024-03-10T01:00:00Z,5,2\nW1,T1,sell,2024-03-10T02:00:00Z,5,3\n',
);

const WSOL = 'So11111111111111111111111111111111111111112';

/** What the test importer's reader was given. */
let given: unknown;

/** An importer the registry does not list: a CSV of fixed columns, with one setting of its own. */
const lines: Importer<{ readonly label: string }> = {
  name: 'lines',
  files: 'LINES.csv',
  help: ['a CSV of who,what,side,when,qty,usd'],
  settings: [
    {
      option: 'label',
      flag: 'label',
      value: 'TEXT',
      help: ['a label (required)'],
      required: true,
      parse: (text) => {
        if (text === 'bad') throw new SettingValueError('label', 'expects a good label');
        return text.toUpperCase();
      },
    },
  ],
  oneFile: true,
  read(paths, options) {
    given = options;
    if (options.label === 'REFUSED') throw new InputError(`${optionName('label')} is refused`, { source: 'options' });
    const columns = parseColumnMapping('wallet=who,token=what,type=side,time=when,quantity=qty,usd_price=usd');
    return importCsvFile(paths[0]!, { network: 'sol', columns, outlierFactor: options.outlierFactor });
  },
};
const withLines = [...IMPORTERS, lines];

function run(importers: readonly Importer[], ...args: string[]): { code: number; out: string; err: string } {
  let out = '';
  let err = '';
  const io: CliIo = { out: (t) => (out += t), err: (t) => (err += t), errIsTty: false };
  const code = runImportCommand(importers, args, io);
  return { code, out, err };
}

describe('the importer registry', () => {
  it('lists each source with its flags in the help of copysim import', () => {
    expect(IMPORT_HELP).toBe(HELP);
  });

  it('takes an importer it is given: dispatch, flags and help', () => {
    const help = importHelp(withLines);
    expect(help).toContain(
      '\n  lines LINES.csv         a CSV of who,what,side,when,qty,usd\n    --label TEXT          a label (required)\n',
    );
    expect(IMPORT_HELP).not.toContain('lines LINES.csv');
    expect(IMPORT_HELP).not.toContain('--label');

    const out = join(dir, 'lines.json');
    const result = run(withLines, 'lines', trades, '--label', 'mine', '--out', out);
    expect(result.code).toBe(0);
    expect(given).toEqual({ label: 'MINE', outlierFactor: 100 });
    expect(result.out).toContain(`${out}: 2 swaps, 1 wallet, 1 token`);
    expect(parseTape(JSON.parse(readFileSync(out, 'utf8'))).swaps).toHaveLength(2);

    expect(() => run(IMPORTERS, 'lines', trades, '--out', out)).toThrow(
      /unknown source "lines": uniswap, pumpswap, csv, dune, flipside, helius, birdeye$/,
    );
    expect(() => run(withLines, 'nope', trades, '--out', out)).toThrow(/unknown source "nope": .*, birdeye, lines$/);
    expect(() => run(IMPORTERS, 'csv', trades, '--label', 'x', '--out', out)).toThrow(/--label/);
    const twoFiles = ['lines', trades, trades, '--label', 'x', '--out', out];
    expect(() => run(withLines, ...twoFiles)).toThrow('import lines takes one source file');
  });

  it("names an importer's options by their flags on the command line", () => {
    const out = join(dir, 'named.json');
    expect(() => run(withLines, 'lines', trades, '--out', out)).toThrow('import lines needs --label');
    expect(() => run(withLines, 'lines', trades, '--label', 'bad', '--out', out)).toThrow(
      /^--label expects a good label$/,
    );
    expect(() => run(withLines, 'lines', trades, '--label', 'refused', '--out', out)).toThrow(/^--label is refused$/);
    const map = ['csv', trades, '--network', 'sol', '--map', 'wallet', '--out', out];
    expect(() => run(IMPORTERS, ...map)).toThrow(/^--map: "wallet" is not field=column/);
    const quoteAssets = ['dune', trades, '--quote-assets', 'X:Y', '--out', out];
    expect(() => run(IMPORTERS, ...quoteAssets)).toThrow(/^--quote-assets: "X:Y" is not ADDRESS:SYMBOL:native/);
    const usdFrom = ['uniswap', trades, '--pools', trades, '--usd-from', 'x', '--out', out];
    expect(() => run(IMPORTERS, ...usdFrom)).toThrow(/^--usd-from expects amountUSD or quote, got "x"$/);
    // A SOL leg without a USD value and without --sol-usd: a drop reason of the report.
    const unpriced = join(dir, 'dune.csv');
    writeFileSync(
      unpriced,
      [
        'blockchain,block_time,user,token_bought_address,token_sold_address,' +
          'token_bought_amount,token_sold_amount,amount_usd',
        `solana,2024-03-10 10:00:00 UTC,W,MINT,${WSOL},10,1,150`,
        `solana,2024-03-10 11:00:00 UTC,W,MINT,${WSOL},10,1,`,
        '',
      ].join('\n'),
    );
    const { err } = run(IMPORTERS, 'dune', unpriced, '--out', out);
    expect(err).toContain(
      '  1 no USD value in the export and no --sol-usd series for its SOL leg (e.g. dune.csv line 3)\n',
    );
    // The native prices come from the row with both: $150 for 1 SOL.
    expect(err).toContain(
      '  note: native prices derived from the data: 1 hourly point over the hour of 2024-03-10T10:00:00Z, each the ' +
        "median USD per SOL of the hour's swaps with a SOL leg and a USD value (from 1 swap); " +
        '--sol-usd FILE gives a series instead\n',
    );
  });

  it('names options, never flags, in the library', () => {
    expect(() => parseQuoteAssets('X:Y')).toThrow(
      /^`quoteAssets`: "X:Y" is not ADDRESS:SYMBOL:native or ADDRESS:SYMBOL:usd$/,
    );
    expect(() => parseColumnMapping('wallet')).toThrow(/^`columns`: "wallet" is not field=column/);
    const csv = IMPORTERS.find((importer) => importer.name === 'csv')!;
    const network = csv.settings.find((setting) => setting.option === 'network')!;
    expect(() => network.parse!('btc')).toThrow(/^`network` expects sol or eth$/);
  });
});

const HELP = `copysim import SOURCE FILE... --out TAPE [flags]

Turns real swap data into a tape: TAPE.json, TAPE.jsonl or TAPE.parquet (by its extension). Prints what it dropped and why on standard error, and a
one-line summary (swaps, wallets, tokens, time range) on standard output.

Sources:
  uniswap SWAPS.json...   The Graph's Uniswap v2/v3 subgraph Swap entities, one file per pool,
                          named by the pool's address (0x….json)
    --pools FILE          pool info (required): pool_info.csv or the subgraph's pairs JSON
    --token ADDRESS       the token to trade (default: the pool info's token, else the non-WETH side)
    --eth-usd FILE        ETH/USD series (Yahoo daily CSV, GeckoTerminal JSON, or unix,price
                          lines): native prices on days without a WETH leg, and a check of amountUSD
    --usd-from SOURCE     amountUSD (default) or quote: the WETH leg × --eth-usd, or a stablecoin leg
  pumpswap CAPTURE.jsonl  the PumpSwap capture: one JSON line per token with its swaps in SOL
    --sol-usd FILE        SOL/USD series (required), e.g. sol_usd_hourly.json
  csv FILE.csv            a CSV export, one swap a row, header first
    --network sol|eth     (required)
    --map MAPPING         (required) field=column,… with fields wallet, token, type, time,
                          quantity, and usd_price or usd_amount (or native_price / native_amount
                          with --native-prices); optional usd_liquidity, transaction_hash,
                          token_name, token_symbol
    --buy VALUES          values of the type column meaning buy, comma-separated (default buy)
    --sell VALUES         values meaning sell (default sell)
    --time-format F       auto (default), unix, unix_ms or iso
    --native-prices FILE  the native coin's USD series (same forms as --eth-usd)
    --delimiter C         default: comma, or tab when the header has tabs

  dune EXPORT...          Dune query results (CSV, or the API's JSON): dex.trades (taker or
                          tx_from, token_bought_address, tx_hash), dex_solana.trades (trader_id,
                          token_bought_mint_address, tx_id), the bot_trades form (user), and the
                          legacy dex.trades (token_a_symbol, trader_a: symbols only)
  flipside EXPORT...      Flipside ez_dex_swaps (EVM: token_in/token_out; Solana: swap_from_mint/
                          swap_to_mint) and the fact_swaps form (from_mint, to_mint)
  helius TXS.json...      Helius enhanced transactions of type SWAP (events.swap), and of type
                          UNKNOWN or with empty events from the wallet's balance changes
  birdeye RESPONSE.json...  Birdeye trade responses (from/to or base/quote items)
    --sol-usd FILE        SOL/USD series: USD values of trades paid in SOL the export lacks
    --eth-usd FILE        ETH/USD series: the same for ETH
    --network sol|eth     when the export has no blockchain column (dune, flipside, birdeye)
    --quote-assets LIST   ADDRESS:SYMBOL:native|usd,… replaces the network's quote assets
                          (which leg is the money; see docs/importers.md)
    --assume-time T       time (unix seconds or ISO) given to rows of an export with none,
                          in file order (Flipside seeds, trimmed Helius files)

Every source:
  --out FILE              where to write the tape (required): .json, .jsonl or .parquet
  --outlier-factor N      drop prices more than N× from their token's median (default 100; 0 keeps all)
  --request-out FILE      also write a simulator request: the wallets with the most round trips
                          (a buy, later a sell of the same token) over the data's whole date range
  --leaders N             how many wallets that request follows (default 20)`;

describe("the command list's line for import", () => {
  it('names every importer of the registry (the command list does not load the importers)', async () => {
    const { COMMANDS } = await import('../../src/cli/main.js');
    const summary = COMMANDS['import']!.summary.toLowerCase();
    for (const importer of IMPORTERS) expect(summary).toContain(importer.name);
  });
});

describe('a flag of another source', () => {
  it('is refused, naming the source and its own flags, not silently ignored', () => {
    const err: string[] = [];
    const io: CliIo = { out: () => {}, err: (t) => err.push(t), errIsTty: false };
    expect(() =>
      runImportCommand(IMPORTERS, ['dune', 'x.csv', '--native-prices', 'p.json', '--out', 't.json'], io),
    ).toThrow(/^--native-prices is not a flag of import dune; its flags: --out, .*--sol-usd, --eth-usd/);
  });
});
