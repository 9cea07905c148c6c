/**
 * Many followers in one walk of the tape (`replayFollowers`): each follower's response is exactly
 * `simulate`'s with that follower's request, whatever the others do: different leaders, windows,
 * sizes, fees and strategies side by side, with the chart and the trade records; summary-only,
 * with each closed deal folded into the summary as it closes, each summary is exactly `simulate`'s.
 */
import fc from 'fast-check';
import { describe, it } from 'vitest';
import { replayFollowers } from '../../src/engine/followers.js';
import { indexTape } from '../../src/engine/tape-index.js';
import { InputError } from '../../src/model/errors.js';
import { resolveEngineOptions } from '../../src/model/options.js';
import { parseSimulatorRequest, type SimulatorRequest, type SimulatorRequestInput } from '../../src/model/request.js';
import type { Deal } from '../../src/engine/deal.js';
import { buildResponse } from '../../src/report/response.js';
import { summaryOf } from '../../src/report/run-summary.js';
import { SummaryFold } from '../../src/report/summary.js';
import { simulate } from '../../src/simulate.js';
import { scenarioArb, strategyArb, type Scenario } from '../support/arbitraries.js';
import { checkProperty } from './run.js';

/** Variations of a scenario's request: other leaders, windows, settings and strategies. */
const variationArb = fc.record(
  {
    leaders: fc.subarray([0, 1, 2, 3], { minLength: 1 }),
    to_date: fc.constantFrom('2024-03-10', '2024-03-11', '2024-03-12'),
    close_all: fc.boolean(),
    inactivity_time_fix: fc.option(fc.record({ hours: fc.integer({ min: 1, max: 6 }) }), { nil: null }),
    strategy: fc.option(strategyArb, { nil: null }),
    // Each setting a follower's replay derives once and shares with followers of the same settings.
    buy_percentage: fc.constantFrom(5, 25, 100),
    max_buy_amount: fc.constantFrom(10, 500),
    max_position_amount: fc.constantFrom(50, 2000),
    priority_fee: fc.constantFrom(0, 0.001),
    bribe: fc.constantFrom(0, 0.0005),
    include_bot_fees: fc.boolean(),
  },
  { requiredKeys: [] },
);

function varied(s: Scenario, v: { leaders?: number[]; [key: string]: unknown }): SimulatorRequestInput {
  const { leaders, ...rest } = v;
  const wallets =
    leaders === undefined ? s.request.wallets : leaders.map((k) => s.request.wallets[k % s.request.wallets.length]!);
  return { ...s.request, ...rest, wallets: [...new Set(wallets)] } as SimulatorRequestInput;
}

/** A scenario with variations of its request. */
const variedArb = fc
  .tuple(scenarioArb({}, 40), fc.array(variationArb, { minLength: 1, maxLength: 5 }))
  .map(([s, vs]) => ({ ...s, variations: vs })) as fc.Arbitrary<Scenario & { variations: object[] }>;

/**
 * The valid requests of a scenario's variations and simulate's response to each; null when the
 * engine refuses the tape (e.g. no native price): nothing to compare.
 */
function simulated(
  s: Scenario & { variations: object[] },
): { requests: SimulatorRequest[]; expected: ReturnType<typeof simulate>[] } | null {
  const requests: SimulatorRequest[] = [];
  for (const v of s.variations) {
    const parsed = parseSimulatorRequest(varied(s, v as never));
    if (parsed.success) requests.push(parsed.data);
  }
  try {
    return { requests, expected: requests.map((r) => simulate(s.tape, r, s.options)) };
  } catch (e) {
    if (e instanceof InputError) return null;
    throw e;
  }
}

describe('replayFollowers', () => {
  it("gives each follower simulate's response, byte for byte", () => {
    checkProperty('followers', variedArb, (s) => {
      const sim = simulated(s);
      if (sim === null) return [];
      const tape = indexTape(s.tape);
      const runs = replayFollowers(tape, sim.requests, resolveEngineOptions(s.options));
      return runs.flatMap((run, f) => {
        const actual = JSON.stringify(buildResponse(run, tape.tokens));
        return actual === JSON.stringify(sim.expected[f]) ? [] : [`follower ${f} differs from simulate`];
      });
    });
  });

  it("folds each closed deal into the summary once, in closing order: simulate's summary", () => {
    checkProperty('followers-folded', variedArb, (s) => {
      const sim = simulated(s);
      if (sim === null) return [];
      const { requests, expected } = sim;
      /** A summary fold that also notes the deals it is given. */
      class NotingFold extends SummaryFold {
        readonly seen: Deal[] = [];
        override add(deal: Deal): void {
          this.seen.push(deal);
          super.add(deal);
        }
      }
      const folds: NotingFold[] = [];
      const runs = replayFollowers(indexTape(s.tape), requests, resolveEngineOptions(s.options), {
        chart: false,
        trades: false,
        closedDeals: (f) => (folds[f] = new NotingFold()),
      });
      return runs.flatMap((run, f) => {
        const problems: string[] = [];
        const want = expected[f]!;
        const seen = folds[f]!.seen;
        const closedWant = want.deals.filter((d) => d.status === 'closed').length;
        if (seen.length !== closedWant)
          problems.push(`follower ${f}: ${seen.length} deals folded, ${closedWant} closed`);
        for (let k = 1; k < seen.length; k++) {
          const [a, b] = [seen[k - 1]!, seen[k]!];
          if (a.closeTime > b.closeTime || (a.closeTime === b.closeTime && a.index > b.index))
            problems.push(`follower ${f}: deal ${b.index} folded after deal ${a.index}`);
        }
        if (run.deals.some((d) => !d.open) || run.deals.length !== want.deals.length - closedWant)
          problems.push(`follower ${f}: the result keeps deals other than the open ones`);
        if (JSON.stringify(summaryOf(run, folds[f])) !== JSON.stringify(want.summary))
          problems.push(`follower ${f}: summary differs from simulate`);
        return problems;
      });
    });
  });
});
