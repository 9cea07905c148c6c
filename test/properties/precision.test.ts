/**
 * What the digits decide (docs/model.md §15, "Precision"): the model asks for exact decimal
 * arithmetic of at least 30 significant digits, and the engine uses 40. Model 1.1's dust rule
 * (3.1 step 3) took away the one place where the precision decided a result (whether a deal at
 * the cap made one more, tiny, buy), so the reference model at 30 digits (decimal.js's default
 * rounding, half up) and at 60 digits (half to even) must give the engine's answers, as the golden
 * comparison accepts, on every generated scenario.
 *
 * The one departure the comparison still sees is not a result: a value that is exactly 0 in exact
 * arithmetic and computed as a difference of two rounded terms, such as a buy's slippage loss
 * `A − quantity × p` without slippage, is 0 at one precision and a residue of the last digit
 * (about 10⁻⁴⁰ at 40 digits) at another, which the comparison's integer clause flags ("expected
 * an integer"). It needs no slippage at all (no liquidity and `unknown_liquidity_slippage_percent`
 * 0); such residues are counted apart and must stay below 10⁻²⁵. So are the two statistics of
 * the summary when they are made of residues alone: `top_deal_dominance` when every deal that made
 * money made only a residue (a ratio of two residues), `linearity_r2_closed_deals` when every
 * closed deal's `pnl_total` is one (a line fitted through noise).
 *
 * `COPYSIM_PRECISION_RUNS` (default 60) scenarios of each kind (a twentieth of it of the long ones);
 * `COPYSIM_PROPERTY_SEED` the seed.
 */
import fc from 'fast-check';
import { Decimal } from 'decimal.js';
import { describe, expect, it } from 'vitest';
import type { SimulatorRequestInput } from '../../src/model/request.js';
import type { Arithmetic } from '../reference/decimal.js';
import { scenarioArb, type Scenario } from '../support/arbitraries.js';
import { compareGolden } from '../support/golden.js';
import { engineOutcome, referenceOutcome } from './departures.js';
import { PROPERTY_SEED } from './run.js';

const RUNS = Number(process.env.COPYSIM_PRECISION_RUNS ?? 60);

const PRECISIONS: readonly (readonly [string, Arithmetic])[] = [
  ['30 digits, half up', { precision: 30, rounding: Decimal.ROUND_HALF_UP }],
  ['60 digits, half to even', { precision: 60, rounding: Decimal.ROUND_HALF_EVEN }],
];

/** A residue: the integer clause flagging a last-digit leftover of an exact cancellation. */
const RESIDUE = /: expected an integer, got (-?[\d.e+-]+)$/;

const TINY = 1e-25;

/** True when `problem` (of the comparison with `reference`) is a last-digit residue, not a result. */
function isResidue(problem: string, reference: unknown): boolean {
  const m = RESIDUE.exec(problem);
  if (m !== null) return Math.abs(Number(m[1])) < TINY;
  const deals = (reference as { deals: { pnl_total: number; status: string }[] }).deals;
  if (problem.startsWith('summary.top_deal_dominance:')) return Math.max(0, ...deals.map((d) => d.pnl_total)) < TINY;
  if (problem.startsWith('summary.linearity_r2_closed_deals:')) {
    return deals.every((d) => d.status !== 'closed' || Math.abs(d.pnl_total) < TINY);
  }
  return false;
}

function withRequest(patch: fc.Arbitrary<Partial<SimulatorRequestInput>>): fc.Arbitrary<Scenario> {
  return fc.tuple(scenarioArb(), patch).map(([s, p]) => ({ ...s, request: { ...s.request, ...p } }));
}

const KINDS: readonly (readonly [string, fc.Arbitrary<Scenario>, number])[] = [
  ['any setting', scenarioArb(), RUNS],
  [
    'inactivity time-fix',
    withRequest(fc.integer({ min: 1, max: 6 }).map((hours) => ({ inactivity_time_fix: { hours } }))),
    RUNS,
  ],
  ['close_all', withRequest(fc.constant({ close_all: true })), RUNS],
  [
    'caps that bind, dupe buys',
    withRequest(
      fc.record({
        max_buy_amount: fc.integer({ min: 1, max: 50 }),
        max_position_amount: fc.integer({ min: 1, max: 120 }),
        max_dupe_buy_times: fc.integer({ min: 0, max: 4 }),
      }),
    ),
    RUNS,
  ],
  ['long scenarios (up to 200 swaps)', scenarioArb({}, 200), Math.max(3, Math.round(RUNS / 20))],
];

describe('the digits decide nothing beyond last-digit residues (model 1.1)', () => {
  it.each(KINDS)('%s: the reference at 30 and at 60 digits answers as the engine at 40', (kind, arb, runs) => {
    const scenarios = fc.sample(arb, { seed: PROPERTY_SEED, numRuns: runs });
    let residueScenarios = 0;
    const departures: string[] = [];
    scenarios.forEach((scenario, i) => {
      const engine = engineOutcome(scenario.tape, scenario.request, scenario.options);
      let residue = false;
      for (const [label, arithmetic] of PRECISIONS) {
        const reference = referenceOutcome(scenario.tape, scenario.request, scenario.options, arithmetic);
        if ('refused' in engine !== 'refused' in reference) {
          departures.push(`scenario ${i}, ${label}: only one of the engine and the reference refuses the input`);
          continue;
        }
        const problems =
          'refused' in engine || 'refused' in reference ? [] : compareGolden(reference.body, engine.body);
        const residues = problems.filter((p) => isResidue(p, 'body' in reference ? reference.body : null));
        if (residues.length > 0) residue = true;
        departures.push(...problems.filter((p) => !residues.includes(p)).map((p) => `scenario ${i}, ${label}: ${p}`));
      }
      if (residue) residueScenarios++;
    });
    console.log(
      `precision scan, ${kind}: ${scenarios.length} scenarios, ${departures.length} departures, ${residueScenarios} with last-digit residues only`,
    );
    expect(departures.slice(0, 10)).toEqual([]);
  });
});
