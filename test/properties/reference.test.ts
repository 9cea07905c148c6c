/**
 * The engine against the reference model (test/reference/): a literal, slow implementation of
 * the simulation model written from its text alone, with decimal.js and none of the engine's
 * shortcuts (no Decimal40, no double words, no memo of the tape, no running sums). Both run on
 * generated scenarios and on the real tapes of ../shared/real-data, and their responses must
 * agree as the golden comparison accepts (../shared/golden/README.md): every key and list
 * length, numbers within 1e-9. An input that one refuses with exit 1 the other must refuse too.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import type { SimulatorRequestInput, TapeInput } from '../../src/index.js';
import { suggestRequest, type ImportResult } from '../../src/import.js';
import { requestVariants, TapeGenerator } from '../../bench/tape-generator.js';
import { scenarioArb, type Scenario } from '../support/arbitraries.js';
import { present, REAL_DATA_DIR } from '../support/paths.js';
import { REAL_SETTINGS, REAL_TAPES } from '../support/real-tapes.js';
import { departures } from './departures.js';
import { checkProperty, REGRESSIONS_DIR, type RegressionFixture } from './run.js';

const scenarioDepartures = (s: Scenario): string[] => departures(s.tape, s.request, s.options);

/** Scenarios with one request setting forced, so the rules that need it run often. */
function withRequest(patch: fc.Arbitrary<Partial<SimulatorRequestInput>>): fc.Arbitrary<Scenario> {
  return fc.tuple(scenarioArb(), patch).map(([s, p]) => ({ ...s, request: { ...s.request, ...p } }));
}

describe('the engine against the reference model, on generated scenarios', () => {
  it('agrees on any scenario', () => {
    checkProperty('reference', scenarioArb(), scenarioDepartures);
  });

  it('agrees with the inactivity time-fix', () => {
    const arb = withRequest(fc.integer({ min: 1, max: 6 }).map((hours) => ({ inactivity_time_fix: { hours } })));
    checkProperty('reference-time-fix', arb, scenarioDepartures);
  });

  it('agrees with close_all', () => {
    checkProperty('reference-close-all', withRequest(fc.constant({ close_all: true })), scenarioDepartures);
  });

  it('agrees under caps that bind and dupe buys', () => {
    const arb = withRequest(
      fc.record({
        max_buy_amount: fc.integer({ min: 1, max: 50 }),
        max_position_amount: fc.integer({ min: 1, max: 120 }),
        max_dupe_buy_times: fc.integer({ min: 0, max: 4 }),
      }),
    );
    checkProperty('reference-caps', arb, scenarioDepartures);
  });

  it('agrees on long scenarios', () => {
    checkProperty('reference-long', scenarioArb({}, 200), scenarioDepartures, 40);
  });
});

describe('the engine against the reference model, on saved departures', () => {
  // Scenarios where the two once departed (test/support/regressions/reference-*.json), each with a note.
  const files = readdirSync(REGRESSIONS_DIR)
    .filter((f) => f.startsWith('reference-') && f.endsWith('.json'))
    .sort();

  it.each(files)('%s', (file) => {
    const fixture = JSON.parse(readFileSync(join(REGRESSIONS_DIR, file), 'utf8')) as RegressionFixture;
    expect(scenarioDepartures(fixture.scenario)).toEqual([]);
  });
});

describe('the engine against the reference model, on seeded benchmark tapes', () => {
  // The benchmark's pump-and-dump tapes (bench/tape-generator.ts), small enough for the
  // reference's quadratic replay: 2,500 swaps over 12 tokens, 8 leaders making half of them.
  const generator = new TapeGenerator({ swaps: 2_500, leaders: 8, tokens: 12, marketWallets: 150, days: 2, seed: 11 });
  const tape = { ...generator.header, swaps: [...generator.swaps()] } as TapeInput;
  const base = generator.request();
  const requests = [base, ...requestVariants(base, 5, 3)] as SimulatorRequestInput[];

  it.each(requests.map((request, i) => [i, request] as const))('agrees on request %i', (_i, request) => {
    const problems = departures(tape, request, {});
    expect(problems, problems.slice(0, 10).join('\n')).toEqual([]);
  });
});

const available = present(REAL_DATA_DIR);
if (!available)
  console.warn(`engine-against-reference on real tapes skipped: ${REAL_DATA_DIR} is absent on this machine`);

function realTape(name: string, imported: () => ImportResult): void {
  describe(name, () => {
    let tape: TapeInput;
    let request: SimulatorRequestInput;
    beforeAll(() => {
      tape = imported().tape;
      request = suggestRequest(tape, 20)!;
    });

    it.each(REAL_SETTINGS)('agrees: %s', (_label, patch) => {
      const problems = departures(tape, { ...request, ...patch }, {});
      expect(problems, problems.slice(0, 10).join('\n')).toEqual([]);
    });
  });
}

describe.skipIf(!available)('the engine against the reference model, on the real tapes of ../shared/real-data', () => {
  for (const [name, imported] of REAL_TAPES) realTape(name, imported);
});
