/**
 * Runs a property with a fixed seed and prints a failing case as a regression fixture.
 *
 * - `COPYSIM_PROPERTY_RUNS` (default 200): runs per property; raise it to search harder.
 * - `COPYSIM_PROPERTY_SEED` (default 20240310): the seed; a failure names the seed and path
 *   that reproduce it.
 * - `COPYSIM_PROPERTY_PATH`: with the seed, replays exactly the failing case a report named.
 * - `COPYSIM_SAVE_COUNTEREXAMPLES=1`: also writes the shrunk case to
 *   `test/support/regressions/`, where `regressions.test.ts` replays it from then on.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { simulate, type SimulatorResponse } from '../../src/index.js';
import type { Scenario } from '../support/arbitraries.js';
import { PROJECT_ROOT } from '../support/paths.js';
import type { Run } from './checks.js';

export const PROPERTY_RUNS = Number(process.env.COPYSIM_PROPERTY_RUNS ?? 200);
export const PROPERTY_SEED = Number(process.env.COPYSIM_PROPERTY_SEED ?? 20_240_310);
const PROPERTY_PATH = process.env.COPYSIM_PROPERTY_PATH;
export const REGRESSIONS_DIR = join(PROJECT_ROOT, 'test', 'support', 'regressions');

/** A saved counterexample: the scenario and what went wrong with it when it was found. */
export interface RegressionFixture {
  /** Why the case is kept, added by hand when it is saved. */
  readonly note?: string;
  readonly property: string;
  readonly seed: number;
  readonly path: string;
  readonly problems: readonly string[];
  /** The generated value: a scenario, with whatever else a metamorphic property generated. */
  readonly scenario: Scenario;
}

/** Simulates a scenario and bundles what the checks need. */
export function runScenario(scenario: Scenario): Run {
  const response: SimulatorResponse = simulate(scenario.tape, scenario.request, scenario.options);
  return { ...scenario, response };
}

/**
 * Checks that `problemsOf` finds nothing for every generated value. On failure, throws an error
 * whose message holds the shrunk case as a {@link RegressionFixture} JSON (and saves it when
 * asked), so it can be replayed as an ordinary test.
 *
 * @example
 * it('sums', () => checkProperty('sums', scenarioArb(), (s) => checkSums(runScenario(s))));
 */
export function checkProperty<T extends Scenario>(
  property: string,
  arbitrary: fc.Arbitrary<T>,
  problemsOf: (value: T) => readonly string[],
  runs = PROPERTY_RUNS,
): void {
  const details = fc.check(
    fc.property(arbitrary, (value) => {
      const problems = problemsOf(value);
      if (problems.length > 0) throw new PropertyProblems(problems);
    }),
    { seed: PROPERTY_SEED, numRuns: runs, ...(PROPERTY_PATH ? { path: PROPERTY_PATH } : {}) },
  );
  if (!details.failed) return;
  const [scenario] = details.counterexample ?? [];
  const error = details.errorInstance;
  const problems =
    error instanceof PropertyProblems ? error.problems : [String((error as Error | undefined)?.stack ?? error)];
  const fixture: RegressionFixture = {
    property,
    seed: details.seed,
    path: details.counterexamplePath ?? '',
    problems,
    scenario: scenario!,
  };
  const json = JSON.stringify(fixture, null, 2);
  let saved = '';
  if (process.env.COPYSIM_SAVE_COUNTEREXAMPLES) {
    mkdirSync(REGRESSIONS_DIR, { recursive: true });
    const file = join(REGRESSIONS_DIR, `${property.replace(/[^a-z0-9]+/gi, '-')}-${details.seed}.json`);
    writeFileSync(file, `${json}\n`);
    saved = `\nsaved as ${file}`;
  }
  throw new Error(
    `property "${property}" failed after ${details.numRuns} run(s), seed ${details.seed}, path "${fixture.path}" ` +
      `(reproduce: COPYSIM_PROPERTY_SEED=${details.seed} COPYSIM_PROPERTY_PATH=${fixture.path}):\n  ${problems.join('\n  ')}\n` +
      `shrunk case (save under test/support/regressions/ to replay it):\n${json}${saved}`,
  );
}

class PropertyProblems extends Error {
  constructor(readonly problems: readonly string[]) {
    super(problems.join('; '));
  }
}
