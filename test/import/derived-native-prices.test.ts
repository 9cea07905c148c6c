import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseTape } from '../../src/index.js';
import { DecimalJs40 as Decimal } from '../../src/numeric/decimal.js';
import {
  hourlyNativePrices,
  importDune,
  importFlipside,
  importProviderFiles,
  NativeRateSamples,
  parsePriceSeries,
  readExportTable,
} from '../../src/import.js';
import { cli } from '../support/cli.js';
import { present, REAL_DATA_DIR } from '../support/paths.js';

const T = 1_710_064_800; // 2024-03-10 10:00:00 UTC, an hour's start
const WSOL = 'So11111111111111111111111111111111111111112';
const USDC_SOL = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
const WETH = '0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2';

const dir = mkdtempSync(join(tmpdir(), 'copysim-native-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, text: string): string => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

/** Samples of [seconds after T, USD value, native amount]. */
function samplesOf(rows: readonly (readonly [number, string, string])[]): NativeRateSamples {
  const samples = new NativeRateSamples();
  for (const [at, usd, native] of rows) samples.add(T + at, usd, native);
  return samples;
}

describe('hourlyNativePrices', () => {
  it("gives each hour's lower median USD per coin at the hour's start, far rates left out", () => {
    const samples = samplesOf([
      // 10:00-10:59: 300 / 2 = 150, 151 / 1 = 151, 1520 / 10 = 152 (the sold leg signed), and
      // 1000000 / 1 = 1e6. Sorted 150, 151, 152: the median is 151.
      [0, '300', '2'],
      [600, '151', '1'],
      [1200, '1520', '-10'],
      [1800, '1000000', '1'],
      // 11:00-11:59: 306 / 2 = 153, 299 / 2 = 149.5, 601 / 4 = 150.25, 160 / 1 = 160, and
      // 1 / 1000000 = 0.000001. Sorted 149.5, 150.25, 153, 160: the lower middle is 150.25.
      [3_600, '306', '2'],
      [4_000, '299', '2'],
      [4_500, '601', '4'],
      [5_000, '160', '1'],
      [7_199, '1', '1000000'],
    ]);
    // The median of all nine: 0.000001, 149.5, 150, 150.25, [151], 152, 153, 160, 1e6. 1e6 / 151
    // is above 100 and 0.000001 / 151 below 1/100: both are left out.
    expect(hourlyNativePrices(samples)).toEqual({
      points: [
        [T, '151'],
        [T + 3_600, '150.25'],
      ],
      swaps: 7,
      leftOut: 2,
    });
  });

  it('takes no rate from a value that is zero, missing or no decimal', () => {
    const samples = new NativeRateSamples();
    expect(samples.add(T, '150', '0')).toBe(false);
    expect(samples.add(T, '150', '')).toBe(false);
    expect(samples.add(T, '150', 'abc')).toBe(false);
    expect(samples.add(T, '150', null)).toBe(false);
    expect(samples.add(T, '150', '1e-400')).toBe(false);
    expect(samples.add(T, '150', 1)).toBe(true);
    expect(hourlyNativePrices(samples).points).toEqual([[T, '150']]);
    expect(hourlyNativePrices(new NativeRateSamples())).toEqual({ points: [], swaps: 0, leftOut: 0 });
  });

  it('orders by the exact quotients rates that are one double, in any order they come', () => {
    // 1.0000000000000000001, …02, …03 and …04 are all the double 1.
    const rate = (last: number): string => `1.000000000000000000${last}`;
    const odd = samplesOf([3, 1, 2].map((d) => [0, rate(d), '1'] as const));
    expect(hourlyNativePrices(odd).points).toEqual([[T, rate(2)]]);
    const even = samplesOf([4, 1, 3, 2].map((d) => [0, rate(d), '1'] as const));
    expect(hourlyNativePrices(even).points).toEqual([[T, rate(2)]]);
    // 1 / 3 divided at 40 digits, written at 20: 0.33333333333333333333.
    expect(hourlyNativePrices(samplesOf([[0, '1', '3']])).points).toEqual([[T, '0.33333333333333333333']]);
    // 100 / 3 and 200 / 6 are the same rate: either is the median.
    expect(
      hourlyNativePrices(
        samplesOf([
          [0, '100', '3'],
          [1, '200', '6'],
          [2, '50', '1'],
        ]),
      ).points,
    ).toEqual([[T, '33.333333333333333333']]);
  });

  it('is the same whatever the order of the samples', () => {
    const rows: [number, string, string][] = [];
    for (let i = 0; i < 500; i++) rows.push([(i * 7919) % 10_800, String(140 + ((i * 37) % 23)), `${1 + (i % 9)}.5`]);
    const forward = hourlyNativePrices(samplesOf(rows));
    const backward = hourlyNativePrices(samplesOf([...rows].reverse()));
    expect(backward).toEqual(forward);
    expect(forward.points.map((p) => p[0])).toEqual([T, T + 3_600, T + 7_200]);
  });

  it('agrees with sorting every exact quotient, on generated samples', () => {
    // A small linear congruential generator: the same samples on every run.
    let seed = 42;
    const next = (n: number): number => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed % n;
    };
    const rows: [number, string, string][] = [];
    for (let i = 0; i < 2_000; i++) {
      // Rates near 150 (many one double apart or the same), a few far off, amounts of up to 18 decimals.
      const usd = next(50) === 0 ? `${next(9) + 1}e${next(12) - 6}` : `${150 + next(3)}.${next(1_000_000)}`;
      const native = next(4) === 0 ? `1.${String(next(1_000_000_000)).padStart(9, '0')}000000001` : `1.${next(100)}`;
      rows.push([next(4 * 3_600), usd, native]);
    }
    const exact = rows.map(([at, usd, native]) => ({
      hour: Math.floor(at / 3_600),
      rate: new Decimal(usd).div(native),
    }));
    const lowerMedian = (rates: Decimal[]): Decimal =>
      [...rates].sort((a, b) => a.comparedTo(b))[(rates.length - 1) >> 1]!;
    const median = lowerMedian(exact.map((e) => e.rate));
    const kept = exact.filter((e) => e.rate.div(median).lte(100) && e.rate.div(median).times(100).gte(1));
    const hours = [...new Set(kept.map((e) => e.hour))].sort((a, b) => a - b);
    const expected = hours.map((h) => [
      T + h * 3_600,
      lowerMedian(kept.filter((e) => e.hour === h).map((e) => e.rate))
        .toSignificantDigits(20)
        .toString(),
    ]);
    const derived = hourlyNativePrices(samplesOf(rows));
    expect(derived.points).toEqual(expected);
    expect(derived.swaps).toBe(kept.length);
    expect(derived.leftOut).toBeGreaterThan(0);
  });

  it('merges the samples of several imports', () => {
    const a = samplesOf([[0, '150', '1']]);
    const b = samplesOf([[10, '152', '1']]);
    const merged = NativeRateSamples.merged([a, b]);
    expect(merged.length).toBe(2);
    expect(hourlyNativePrices(merged).points).toEqual([[T, '150']]);
  });
});

const DUNE_HEADER =
  'blockchain,block_time,trader_id,token_bought_mint_address,token_sold_mint_address,' +
  'token_bought_amount,token_sold_amount,amount_usd,tx_id';
const csv = (...lines: string[]): string => `${lines.join('\n')}\n`;
/** A Dune dex_solana.trades row: `wallet` buys 100 TOK for `sol` SOL worth `usd`, at T + `at`. */
const buy = (at: number, wallet: string, sol: string, usd: string): string =>
  `solana,${new Date((T + at) * 1000).toISOString()},${wallet},TOK,${WSOL},100,${sol},${usd},h${wallet}${at}`;

describe('the provider importers without a native series', () => {
  it('derive the native prices from the rows with a USD value and a SOL leg, and say so', () => {
    // 10:00: 300 / 2 = 150 and 302 / 2 = 151: the lower middle is 150. 11:00: 456 / 3 = 152.
    // The USDC row has no SOL leg: no rate.
    const text = csv(
      DUNE_HEADER,
      buy(0, 'W1', '2', '300'),
      buy(60, 'W2', '2', '302'),
      buy(3_700, 'W3', '3', '456'),
      `solana,${new Date(T * 1000).toISOString()},W4,TOK,${USDC_SOL},100,150,150,hW4`,
    );
    const { tape, report, derivedNative } = importDune(readExportTable(text, 'dune.csv'), 'dune.csv');
    expect(tape.native_prices).toEqual([
      [T, '150'],
      [T + 3_600, '152'],
    ]);
    expect(derivedNative?.samples.length).toBe(3);
    expect(report.notes).toContain(
      'native prices derived from the data: 2 hourly points over the hours from 2024-03-10T10:00:00Z to ' +
        "2024-03-10T11:00:00Z, each the median USD per SOL of the hour's swaps with a SOL leg and a USD value " +
        '(from 3 swaps); `solUsd` FILE gives a series instead',
    );
    expect(() => parseTape(tape)).not.toThrow();
  });

  it('take a series given instead, and derive nothing', () => {
    const text = csv(DUNE_HEADER, buy(0, 'W1', '2', '300'));
    const solUsd = parsePriceSeries(`${T - 60},140\n`, 'sol.tsv');
    const { tape, report, derivedNative } = importDune(readExportTable(text, 'dune.csv'), 'dune.csv', { solUsd });
    expect(tape.native_prices).toEqual([[T - 60, '140']]);
    expect(derivedNative).toBeUndefined();
    expect(report.notes).toContain("native prices: 1 point of `solUsd` over the trades' time range");
  });

  it('say, when no row has both, that simulating with fees will fail and which option fixes it', () => {
    const text = csv(DUNE_HEADER, `solana,${new Date(T * 1000).toISOString()},W,TOK,${USDC_SOL},100,150,150,h`);
    const { tape, report } = importDune(readExportTable(text, 'dune.csv'), 'dune.csv');
    expect(tape.native_prices).toEqual([]);
    expect(report.notes).toContain(
      'no native prices: no swap has both a SOL leg and a USD value to derive them from (pass `solUsd` FILE): ' +
        'simulating with fees will fail',
    );
  });

  it('count only the swaps that go into the tape (an outlier price is not one)', () => {
    // Three buys of 100 TOK: $300, $302 and $300,000 (a price 1000× the others: dropped). The
    // last one's rate, 300000 / 2000 = 150, would make the lower middle of 150, 150, 151 be 150
    // anyway: with it left out, the two left give the lower middle of 150 and 151, 150.
    const text = csv(
      DUNE_HEADER,
      buy(0, 'W1', '2', '300'),
      buy(60, 'W2', '2', '302'),
      buy(120, 'W3', '2000', '300000'),
    );
    const { tape, report, derivedNative } = importDune(readExportTable(text, 'dune.csv'), 'dune.csv');
    expect(report.kept).toBe(2);
    expect(derivedNative?.samples.length).toBe(2);
    expect(tape.native_prices).toEqual([[T, '150']]);
  });

  it('read the USD value of either leg of Flipside and ETH legs on eth', () => {
    // ez_dex_swaps on EVM: W sold 0.5 WETH (worth $1900) for 1000 TOK: 3800 USD per ETH.
    const header = 'block_timestamp,origin_from_address,token_in,amount_in,amount_in_usd,token_out,amount_out,tx_hash';
    const text = csv(header, `2024-03-10T10:20:00Z,0xW,${WETH},0.5,1900,0xTOK,1000,0xh`);
    const { tape, report } = importFlipside(readExportTable(text, 'flipside.csv'), 'flipside.csv');
    expect(tape.native_prices).toEqual([[T, '3800']]);
    expect(report.notes.some((n) => n.includes('median USD per ETH') && n.includes('an ETH leg'))).toBe(true);
  });

  it('derive once from every file of an import, an hour two files share given one median', () => {
    // a.csv: 150 and 152 at 10:00 (alone: 150); b.csv: 151 and 149 (alone: 149). Together:
    // 149, 150, 151, 152: the lower middle is 150.
    const a = file('a.csv', csv(DUNE_HEADER, buy(0, 'W1', '1', '150'), buy(10, 'W2', '1', '152')));
    const b = file('b.csv', csv(DUNE_HEADER, buy(20, 'W3', '1', '151'), buy(30, 'W4', '1', '149')));
    expect(importProviderFiles('dune', [b]).tape.native_prices).toEqual([[T, '149']]);
    const { tape, report } = importProviderFiles('dune', [a, b]);
    expect(tape.native_prices).toEqual([[T, '150']]);
    const notes = report.notes.filter((n) => n.includes('native prices'));
    expect(notes).toEqual([
      "native prices derived from the data: 1 hourly point over the hour of 2024-03-10T10:00:00Z, each the median USD per SOL of the hour's swaps with a SOL leg and a USD value (from 4 swaps); `solUsd` FILE gives a series instead",
    ]);
  });
});

describe('copysim import then simulate, without a price file', () => {
  /** A request following `wallets` on 2024-03-10 with a priority fee: every copy pays a network fee. */
  const request = (wallets: readonly string[]): string =>
    file(
      `request-${wallets.join('-')}.json`,
      JSON.stringify({
        wallets,
        network: 'sol',
        from_date: '2024-03-10',
        to_date: '2024-03-10',
        buy_percentage: 100,
        max_buy_amount: 100,
        max_position_amount: 500,
        priority_fee: 0.0001,
        bribe: 0,
        max_dupe_buy_times: 1,
      }),
    );

  it('says on stderr where the native prices come from, and the tape simulates with fees', async () => {
    const sell = (at: number): string =>
      `solana,${new Date((T + at) * 1000).toISOString()},W1,${WSOL},TOK,3,100,456,hs${at}`;
    const dune = file('trades.csv', csv(DUNE_HEADER, buy(0, 'W1', '2', '300'), sell(3_700)));
    const tape = join(dir, 'trades.json');
    const imported = await cli('import', 'dune', dune, '--out', tape);
    expect(imported.code).toBe(0);
    expect(imported.err).toContain(
      '  note: native prices derived from the data: 2 hourly points over the hours from 2024-03-10T10:00:00Z ' +
        "to 2024-03-10T11:00:00Z, each the median USD per SOL of the hour's swaps with a SOL leg and a USD value " +
        '(from 2 swaps); --sol-usd FILE gives a series instead\n',
    );
    expect(imported.out).toContain('2 native prices');
    const simulated = await cli('simulate', '--tape', tape, '--request', request(['W1']));
    expect(simulated.err).not.toMatch(/native_prices is empty/);
    expect(simulated.code).toBe(0);
    // Two copies, each paying 0.000005 SOL of base fee and 0.0001 of priority fee: 0.000105 SOL
    // at $150 (the buy's hour), then at $152 (the sell's): 0.01575 + 0.01596 = 0.03171 USD.
    const response = JSON.parse(simulated.out) as { summary: { network_fees: number } };
    expect(response.summary.network_fees).toBeCloseTo(0.03171, 10);
  });

  it('names the flag of the import command when nothing can be derived', async () => {
    const text = csv(DUNE_HEADER, `solana,${new Date(T * 1000).toISOString()},W,TOK,${USDC_SOL},100,150,150,h`);
    const { code, err } = await cli('import', 'dune', file('usdc.csv', text), '--out', join(dir, 'usdc.json'));
    expect(code).toBe(0);
    expect(err).toContain('(pass --sol-usd FILE): simulating with fees will fail\n');
  });
});

const EXPORTS = join(REAL_DATA_DIR, 'exports');
const available = present(EXPORTS);
if (!available) console.warn(`skipping copysim import dune then simulate on the real exports: ${EXPORTS} is absent`);

describe.skipIf(!available)('copysim import dune on the real exports, then simulate with fees', () => {
  it.each([
    ['dex_trades.csv', ['dex_trades.csv'], 'ETH', 24],
    ['the Solana bot seeds', ['trojan_solana_trades_seed.csv', 'bonkbot_solana_trades_seed.csv'], 'SOL', 2],
  ])('%s', async (name, files, coin, hours) => {
    const tape = join(dir, `${name}.json`);
    const requestOut = join(dir, `${name}.request.json`);
    const paths = files.map((f) => join(EXPORTS, 'dune', f));
    const imported = await cli('import', 'dune', ...paths, '--out', tape, '--request-out', requestOut);
    expect(imported.code).toBe(0);
    expect(imported.err).toContain(`note: native prices derived from the data: ${hours} hourly points`);
    expect(imported.err).toContain(`median USD per ${coin}`);
    // The suggested request, with a priority fee on top of the base fee.
    const request = JSON.parse(readFileSync(requestOut, 'utf8')) as Record<string, unknown>;
    const withFees = file(`${name}.fees.json`, JSON.stringify({ ...request, priority_fee: 0.0001 }));
    const simulated = await cli('simulate', '--tape', tape, '--request', withFees);
    expect(simulated.code).toBe(0);
    const response = JSON.parse(simulated.out) as { summary: { network_fees: number } };
    expect(response.summary.network_fees).toBeGreaterThan(0);
  });
});
