import { describe, expect, it } from 'vitest';
import { parseTape } from '../../src/index.js';
import { importUniswap, parsePoolInfo, parsePriceSeries, type UniswapPool } from '../../src/import.js';

const WETH = '0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2';
const XDAO = '0x71eeba415a523f5c952cc2f06361d5443545ad28';
const SWEAT = '0xb4b9dc1c77bdbb135ea907fd5a08094d98883a35';
const pools: UniswapPool[] = [
  {
    id: '0xpool2',
    token0: { id: XDAO, symbol: 'XDAO', name: 'XDAO' },
    token1: { id: WETH, symbol: 'WETH', name: null },
    token: XDAO,
  },
  {
    id: '0xpool3',
    token0: { id: SWEAT, symbol: 'SWEAT', name: null },
    token1: { id: WETH, symbol: 'WETH', name: null },
    token: null,
  },
];
const v2 = (over: Record<string, unknown>) => ({
  amount0In: '0',
  amount0Out: '0',
  amount1In: '0',
  amount1Out: '0',
  amountUSD: '0',
  from: '0xAbC',
  id: '0xhash2-0',
  logIndex: '1',
  timestamp: '1000',
  transaction: { blockNumber: '10' },
  ...over,
});
const v3 = (over: Record<string, unknown>) => ({
  amount0: '0',
  amount1: '0',
  amountUSD: '0',
  origin: '0xDeF',
  id: '0xhash3#5',
  logIndex: '2',
  timestamp: '2000',
  transaction: { blockNumber: '20' },
  ...over,
});

describe('importUniswap', () => {
  it.each([
    // v2: the trader gets 10 XDAO for 0.5 WETH worth $600 → buy at 600 / 10 = $60; ETH/USD 600 / 0.5 = 1200.
    [
      'v2 buy',
      '0xpool2',
      v2({ amount0Out: '10', amount1In: '0.5', amountUSD: '600' }),
      {
        type: 'buy',
        quantity: '10',
        usd_price: '60',
        usd_amount: '600',
        token: XDAO,
        wallet: '0xabc',
        transaction_hash: '0xhash2',
      },
      [1000, '1200'],
    ],
    // v2: 4 XDAO in, 0.2 WETH out, $240 → sell at 240 / 4 = $60; ETH/USD 240 / 0.2 = 1200.
    [
      'v2 sell',
      '0xpool2',
      v2({ amount0In: '4', amount1Out: '0.2', amountUSD: '240' }),
      { type: 'sell', quantity: '4', usd_price: '60' },
      [1000, '1200'],
    ],
    // v3 signs from the pool: amount0 −100 → the trader received 100 SWEAT: buy at 15 / 100 = $0.15; ETH/USD 15 / 0.01 = 1500.
    [
      'v3 buy',
      '0xpool3',
      v3({ amount0: '-100', amount1: '0.01', amountUSD: '15' }),
      { type: 'buy', quantity: '100', usd_price: '0.15', wallet: '0xdef', transaction_hash: '0xhash3', token: SWEAT },
      [2000, '1500'],
    ],
    // v3: 50 SWEAT into the pool, 0.005 WETH out, $7.5 → sell at 0.15; ETH/USD 1500.
    [
      'v3 sell',
      '0xpool3',
      v3({ amount0: '50', amount1: '-0.005', amountUSD: '7.5' }),
      { type: 'sell', quantity: '50', usd_price: '0.15' },
      [2000, '1500'],
    ],
  ])('%s', (_name, pool, row, swap, nativePoint) => {
    const { tape, report } = importUniswap([{ pool, swaps: [row], source: 'p.json' }], pools);
    expect(report.kept).toBe(1);
    expect(tape.swaps[0]).toMatchObject(swap);
    expect(tape.native_prices).toEqual([nativePoint]);
    expect(() => parseTape(tape)).not.toThrow();
  });

  it('drops what it cannot use, with reasons and where, and keeps the rest', () => {
    const good = v3({ amount0: '-100', amount1: '0.01', amountUSD: '15' });
    const { tape, report } = importUniswap(
      [
        {
          pool: '0xpool3',
          source: 'a.json',
          swaps: [
            good,
            v3({ amount0: '0', amount1: '0.01', amountUSD: '15' }),
            v3({ amount0: '-1', amount1: '1', amountUSD: '0' }),
            { ...good, timestamp: 'soon' },
          ],
        },
        { pool: '0xunknown', source: 'b.json', swaps: [good] },
      ],
      pools,
      { outlierFactor: 0 },
    );
    expect(report.rows).toBe(5);
    expect(report.kept).toBe(1);
    expect(tape.swaps).toHaveLength(1);
    expect(report.dropped.map((d) => [d.reason.split(' (')[0], d.count, d.examples[0]])).toEqual([
      ['no net amount of the traded token', 1, 'a.json swaps[1]'],
      ['no USD value', 1, 'a.json swaps[2]'],
      ['malformed v3 Swap entity', 1, 'a.json swaps[3]'],
      ['pool not in the pool info', 1, 'b.json swaps[0]'],
    ]);
  });

  it('drops a price more than 100× from its token median', () => {
    // Prices 0.15, 0.15, 0.16 and 20 (= 2 / 0.1): the median is 0.155; 20 / 0.155 ≈ 129 > 100.
    const rows = [
      ['-100', '15'],
      ['-100', '15'],
      ['-100', '16'],
      ['-0.1', '2'],
    ].map(([a0, usd]) => v3({ amount0: a0, amount1: '0.01', amountUSD: usd }));
    const { tape, report } = importUniswap([{ pool: '0xpool3', swaps: rows, source: 'p.json' }], pools);
    expect(tape.swaps.map((s) => s.usd_price)).toEqual(['0.15', '0.15', '0.16']);
    expect(report.dropped[0]).toMatchObject({ count: 1, examples: ['p.json swaps[3]'] });
  });

  it('orders swaps by time, then block and log index', () => {
    const rows = [
      v3({ amount0: '-1', amount1: '0.01', amountUSD: '1', timestamp: '50', logIndex: '9', id: 'c' }),
      v3({ amount0: '-1', amount1: '0.01', amountUSD: '1', timestamp: '50', logIndex: '3', id: 'b' }),
      v3({ amount0: '-1', amount1: '0.01', amountUSD: '1', timestamp: '40', logIndex: '7', id: 'a' }),
    ];
    const { tape } = importUniswap([{ pool: '0xpool3', swaps: rows, source: 'p.json' }], pools);
    expect(tape.swaps.map((s) => s.transaction_hash)).toEqual(['a', 'b', 'c']);
  });

  it('with --eth-usd: leaves out WETH legs whose amountUSD is off, fills days without one, or prices from the quote leg', () => {
    const ethUsd = parsePriceSeries('0,1200\n86400,1300\n', 'eth.tsv');
    // amountUSD 300 for 0.5 WETH implies 600 = 0.5 × 1200: the pool's native points are left out.
    const half = v2({ amount0Out: '10', amount1In: '0.5', amountUSD: '300', timestamp: '100' });
    const next = v2({ amount0Out: '10', amount1In: '0.5', amountUSD: '300', timestamp: '90000' });
    const byAmount = importUniswap([{ pool: '0xpool2', swaps: [half, next], source: 'p.json' }], pools, { ethUsd });
    expect(byAmount.report.notes.join('\n')).toMatch(/implies ETH\/USD at 0\.5× the `ethUsd` series/);
    // Days 0 and 1 have no WETH-leg point left: each takes the series' price at the end of that day.
    expect(byAmount.tape.native_prices).toEqual([
      [0, '1200'],
      [86_400, '1300'],
    ]);
    // Quote leg: 0.5 WETH × 1200 = $600 for 10 XDAO → $60; on day 1, 0.5 × 1300 / 10 = $65.
    const byQuote = importUniswap([{ pool: '0xpool2', swaps: [half, next], source: 'p.json' }], pools, {
      ethUsd,
      usdFrom: 'quote',
    });
    expect(byQuote.tape.swaps.map((s) => s.usd_price)).toEqual(['60', '65']);
  });

  it('prices a swap against DAI at 1 USD a DAI, as against USDC and USDT', () => {
    // DAI's mainnet contract, as ../shared/real-data/eth-uniswap/pool_info.csv lists its pairs (HOPR/DAI, CELL/DAI).
    const DAI = '0x6b175474e89094c44da98b954eedeac495271d0f';
    const HOPR = '0xf5581dfefd8fb0e4aec526be659cfab1f8c781da';
    const daiPool: UniswapPool[] = [
      {
        id: '0xdaipool',
        token0: { id: DAI, symbol: 'DAI', name: null },
        token1: { id: HOPR, symbol: 'HOPR', name: null },
        token: null,
      },
    ];
    // 30 DAI in for 100 HOPR out: a buy of HOPR at 30 / 100 = $0.3, the token picked as the side that is not a stablecoin.
    const row = v2({ amount0In: '30', amount1Out: '100', amountUSD: '0' });
    const { tape } = importUniswap([{ pool: '0xdaipool', swaps: [row], source: 'd.json' }], daiPool, {
      usdFrom: 'quote',
    });
    expect(tape.swaps).toEqual([
      expect.objectContaining({ token: HOPR, type: 'buy', quantity: '100', usd_price: '0.3', usd_amount: '30' }),
    ]);
  });
});

describe('parsePoolInfo', () => {
  it('reads the CSV form with the token of interest', () => {
    const csv =
      'date,platform,Contracts,token_name,id,token0_id,token0_symbol,token1_id,token1_symbol\n' +
      `x,uniswap_v2,${XDAO.toUpperCase()},XDAO Token,0xPOOL,${XDAO},XDAO,${WETH},WETH\n`;
    expect(parsePoolInfo(csv, 'p.csv')).toEqual([
      {
        id: '0xpool',
        token: XDAO,
        token0: { id: XDAO, symbol: 'XDAO', name: 'XDAO Token' },
        token1: { id: WETH, symbol: 'WETH', name: null },
      },
    ]);
  });

  it('reads the subgraph pairs JSON form', () => {
    const json = JSON.stringify({
      pairs: [{ id: '0xP', token0: { id: SWEAT, symbol: 'SWEAT' }, token1: { id: WETH, symbol: 'WETH' } }],
    });
    expect(parsePoolInfo(json, 'p.json')[0]).toMatchObject({ id: '0xp', token: null, token0: { symbol: 'SWEAT' } });
  });

  it('names the missing columns', () => {
    expect(() => parsePoolInfo('id,token0_id\n', 'p.csv')).toThrow(
      /p\.csv: pool info CSV lacks columns token0_symbol, token1_id, token1_symbol/,
    );
  });
});

describe('values a tape cannot hold', () => {
  it('drops a swap whose amountUSD is beyond 1e60, and the ETH/USD point it would give', () => {
    // The good sell: 4 XDAO for 0.2 WETH worth $240 → ETH/USD 240 / 0.2 = 1200 at t = 2000.
    const huge = v2({ amount0Out: '10', amount1In: '0.5', amountUSD: '1e99999' });
    const good = v2({ amount0In: '4', amount1Out: '0.2', amountUSD: '240', timestamp: '2000', id: '0xhash9-0' });
    const { tape, report } = importUniswap([{ pool: '0xpool2', swaps: [huge, good], source: 'p.json' }], pools);
    expect(report.kept).toBe(1);
    // The first value at fault names the drop: usd_price = 1e99999 / 10 XDAO = 1e99998 (quantity 10 fits).
    expect(report.dropped.map((d) => [d.reason, d.examples])).toEqual([
      ["usd_price 1e+99998 is outside the tape's range (1e-60 to 1e60)", ['p.json swaps[0]']],
    ]);
    expect(tape.native_prices).toEqual([[2000, '1200']]);
    expect(() => parseTape(tape)).not.toThrow();
  });
});
