/**
 * The strategy extensions (model 2.0) over generated tapes: what must hold whatever the strategy,
 * and the engine against the reference model's reading of the extensions (test/reference/,
 * written from the text alone). Fixed seed and run count, see run.ts.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, it } from 'vitest';
import { simulate, simulateStream } from '../../src/simulate.js';
import { writeParquetTape } from '../../src/io/parquet/write.js';
import { simulateParquetFileParts } from '../../src/io/parquet/simulate.js';
import { assembleResponse } from '../../src/report/response.js';
import type { SimulatorRequestInput } from '../../src/model/request.js';
import { scenarioArb, strategyArb, strategyScenarioArb, type Scenario } from '../support/arbitraries.js';
import { checkCharts, checkDealStatus, checkLastPoint, checkSums } from './checks.js';
import { checkProperty, runScenario } from './run.js';
import { departures } from './departures.js';

const json = (s: Scenario, request: SimulatorRequestInput = s.request): string =>
  JSON.stringify(simulate(s.tape, request, s.options));

/** `[]` when `a` and `b` are the same text, else where they first differ. */
function sameText(a: string, b: string, label: string): string[] {
  if (a === b) return [];
  let i = 0;
  while (a[i] === b[i]) i++;
  return [
    `${label}: the responses differ from character ${i}: …${a.slice(i, i + 60)}… against …${b.slice(i, i + 60)}…`,
  ];
}

describe('a strategy of defaults is model 1.1, byte for byte', () => {
  it.each<[string, SimulatorRequestInput['strategy']]>([
    ['strategy: null', null],
    ['strategy: {}', {}],
    ['copy_delay_seconds: 0', { copy_delay_seconds: 0 }],
    [
      'every member at its default',
      {
        copy_delay_seconds: 0,
        fixed_buy_amount: null,
        min_leader_buy_usd: 0,
        min_liquidity_usd: null,
        max_token_age_hours: null,
        take_profit: [],
        stop_loss_percent: null,
        trailing_stop_percent: null,
        max_hold_hours: null,
        report_skipped: false,
      },
    ],
  ])('%s', (label, strategy) => {
    checkProperty(`no-strategy-${label}`, scenarioArb(), (s) =>
      sameText(json(s), json(s, { ...s.request, strategy }), label),
    );
  });
});

describe('identities that hold whatever the strategy', () => {
  const arb = strategyScenarioArb();

  it('pnl_total = pnl_realized + pnl_unrealized per deal and in the summary; summary = Σ deals', () => {
    checkProperty('strategy-sums', arb, (s) => checkSums(runScenario(s)));
  });

  it("the chart's last point equals the summary (its last realized PnL the summary's)", () => {
    checkProperty('strategy-last-point', arb, (s) => checkLastPoint(runScenario(s)));
  });

  it('closed deals are fully sold and their cash flows add up; charts have a point per trade, in time order', () => {
    checkProperty('strategy-deal-status', arb, (s) => checkDealStatus(runScenario(s)));
    checkProperty('strategy-charts', arb, (s) => checkCharts(runScenario(s)));
  });

  it('a take-profit level never reached changes nothing', () => {
    // Generated prices stay within 0.01 to 1,000 USD, so no ROI reaches 10⁹ %.
    checkProperty('strategy-unreached-level', arb, (s) => {
      const strategy = s.request.strategy!;
      const ladder = [...(strategy.take_profit ?? []), { roi: 1e9, sell_percent: 100 }];
      return sameText(
        json(s),
        json(s, { ...s.request, strategy: { ...strategy, take_profit: ladder } }),
        'unreached level',
      );
    });
  });

  it('a streamed tape answers as the tape in memory', () => {
    checkProperty('strategy-stream', arb, (s) => {
      const { swaps, ...header } = s.tape;
      const ordered = swaps
        .map((swap, k) => ({ swap, k }))
        .sort((a, b) => a.swap.time - b.swap.time || a.k - b.k)
        .map((x) => x.swap);
      const streamed = JSON.stringify(simulateStream(header, ordered, s.request, s.options));
      return sameText(json(s), streamed, 'stream');
    });
  });

  it('a Parquet tape answers as the tape in memory (its row groups checked a column at a time, market swaps as price ticks)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'copysim-parquet-property-'));
    let run = 0;
    checkProperty('strategy-parquet', arb, (s) => {
      const { swaps, ...header } = s.tape;
      const ordered = swaps
        .map((swap, k) => ({ swap, k }))
        .sort((a, b) => a.swap.time - b.swap.time || a.k - b.k)
        .map((x) => x.swap);
      const file = join(dir, `tape-${run++}.parquet`);
      writeParquetTape(file, { ...header, swaps: ordered });
      const parquet = JSON.stringify(assembleResponse(simulateParquetFileParts(file, s.request, s.options)));
      return sameText(json(s), parquet, 'parquet');
    });
  });
});

describe('the engine against the reference model, with strategies', () => {
  it('agrees on any generated strategy', () => {
    checkProperty('reference-strategy', strategyScenarioArb(), (s) => departures(s.tape, s.request, s.options));
  });

  it('agrees with a copy delay, exits and a time-fix together', () => {
    const arb = fc
      .tuple(scenarioArb(), strategyArb, fc.integer({ min: 1, max: 6 }), fc.constantFrom(60, 1_800, 3_600))
      .map(([s, strategy, hours, delay]) => ({
        ...s,
        request: {
          ...s.request,
          inactivity_time_fix: { hours },
          strategy: { ...strategy, copy_delay_seconds: delay, max_hold_hours: hours },
        },
      }));
    checkProperty('reference-strategy-schedule', arb, (s) => departures(s.tape, s.request, s.options));
  });

  it('agrees on long scenarios', () => {
    checkProperty(
      'reference-strategy-long',
      strategyScenarioArb(200),
      (s) => departures(s.tape, s.request, s.options),
      30,
    );
  });
});
