/**
 * The simulator over the real tapes of ../shared/real-data (Uniswap v2/v3 on eth, the PumpSwap
 * capture on sol), imported with the library's adapters. Leaders: the 20 wallets with the most
 * round trips (a buy, then a later sell of the same token by the same wallet; see
 * `roundTrips`). Window: the data's whole date range. Every identity of
 * test/properties/checks.ts must hold under each setting.
 */
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  importPumpSwapFile,
  importUniswapFiles,
  indexTape,
  simulate,
  suggestRequest,
  topRoundTripWallets,
  type ImportResult,
  type IndexedTape,
  type SimulatorRequestInput,
} from '../src/index.js';
import { checkAll } from './properties/checks.js';
import { present, REAL_DATA_DIR } from './support/paths.js';

const available = present(REAL_DATA_DIR);
if (!available) console.warn(`real-data test skipped: ${REAL_DATA_DIR} is absent on this machine`);

const uniswapFiles = [
  'uniswap_v2/0x2a8e096189d66f57196678701eb03f9c5f591ff3.json',
  'uniswap_v2/0x74ab6bf0d6a8e8b2b06fa4e3225e8142d658cd80.json',
  'uniswap_v3/0x3796f2e6a8f00d8f397dad77f5a77d60ae829e6b.json',
  'uniswap_v3/0x6b102c653f9dd4b5df3efcc22f36847ef285b318.json',
].map((f) => join(REAL_DATA_DIR, 'eth-uniswap', 'sample_data', f));

/** Settings every tape runs under, on top of the suggested request. */
const SETTINGS: [string, Partial<SimulatorRequestInput>][] = [
  ['suggested (bot fees, no time-fix)', {}],
  ['close_all', { close_all: true }],
  ['time-fix 1 h', { inactivity_time_fix: { hours: 1 } }],
  ['tight caps, no dupes', { max_buy_amount: 50, max_position_amount: 120, max_dupe_buy_times: 0 }],
  ['no bot fees, priority fee and bribe', { include_bot_fees: false, priority_fee: 0.001, bribe: 0.0005, buy_percentage: 10 }],
];

function runAll(name: string, imported: () => ImportResult): void {
  describe(name, () => {
    let result: ImportResult;
    let indexed: IndexedTape;
    let request: SimulatorRequestInput;
    beforeAll(() => {
      result = imported();
      indexed = indexTape(result.tape);
      request = suggestRequest(result.tape, 20)!;
    });

    it('imports, reporting what it dropped', () => {
      const { report, tape } = result;
      expect(report.kept).toBe(tape.swaps.length);
      expect(report.kept + report.dropped.reduce((n, d) => n + d.count, 0)).toBe(report.rows);
      expect(tape.native_prices?.length).toBeGreaterThan(0);
      expect(request.wallets).toHaveLength(20);
      expect(topRoundTripWallets(tape, 1)[0]!.roundTrips).toBeGreaterThan(1);
    });

    it.each(SETTINGS)('holds every identity: %s', (_label, patch) => {
      const run = { tape: result.tape, request: { ...request, ...patch }, options: {} };
      const response = simulate(indexed, run.request, run.options);
      expect(response.deals.length).toBeGreaterThan(0);
      const problems = checkAll({ ...run, response });
      expect(problems, problems.slice(0, 5).join('\n')).toEqual([]);
    });
  });
}

describe.skipIf(!available)('real tapes of ../shared/real-data', () => {
  runAll('Uniswap v2/v3 on eth (four pools)', () =>
    importUniswapFiles(uniswapFiles, {
      pools: join(REAL_DATA_DIR, 'eth-uniswap', 'pool_info.csv'),
      ethUsd: join(REAL_DATA_DIR, 'prices', 'ETH-USD_daily_yahoo_Cryp-Tor.csv'),
    }),
  );
  runAll('PumpSwap capture on sol', () =>
    importPumpSwapFile(join(REAL_DATA_DIR, 'sol-pumpswap', 'floor_capture_sample.jsonl'), {
      solUsd: join(REAL_DATA_DIR, 'sol-pumpswap', 'sol_usd_hourly.json'),
    }),
  );
});
