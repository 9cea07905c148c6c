/**
 * The simulator over the real tapes of ../shared/real-data (Uniswap v2/v3 on eth, the PumpSwap
 * capture on sol), imported with the library's adapters. Leaders: the 20 wallets with the most
 * round trips (a buy, then a later sell of the same token by the same wallet; see
 * `roundTrips`). Window: the data's whole date range. Every identity of
 * test/properties/checks.ts must hold under each setting.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { indexTape, simulate, type IndexedTape, type SimulatorRequestInput } from '../../src/index.js';
import { suggestRequest, topRoundTripWallets, type ImportResult } from '../../src/import.js';
import { checkAll } from '../properties/checks.js';
import { present, REAL_DATA_DIR } from '../support/paths.js';
import { REAL_SETTINGS, REAL_TAPES } from '../support/real-tapes.js';

const available = present(REAL_DATA_DIR);
if (!available) console.warn(`real-data test skipped: ${REAL_DATA_DIR} is absent on this machine`);

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

    it.each(REAL_SETTINGS)('holds every identity: %s', (_label, patch) => {
      const run = { tape: result.tape, request: { ...request, ...patch }, options: {} };
      const response = simulate(indexed, run.request, run.options);
      expect(response.deals.length).toBeGreaterThan(0);
      const problems = checkAll({ ...run, response });
      expect(problems, problems.slice(0, 5).join('\n')).toEqual([]);
    });
  });
}

describe.skipIf(!available)('real tapes of ../shared/real-data', () => {
  for (const [name, imported] of REAL_TAPES) runAll(name, imported);
});
