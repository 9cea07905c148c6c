/**
 * What the engine keeps for speed never changes a result: leader facts and prices kept with an indexed
 * tape across requests, summary-only replays, progress hooks.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { resolveEngineOptions } from '../../src/model/options.js';
import { parseSimulatorRequest, type SimulatorRequestInput } from '../../src/model/request.js';
import { replay } from '../../src/engine/replay.js';
import { indexTape } from '../../src/engine/tape-index.js';
import { simulate } from '../../src/simulate.js';
import { TapeGenerator } from '../../bench/tape-generator.js';
import { scenarioArb, windowEnd } from '../support/arbitraries.js';
import { DAY_START, FLAT_NATIVE, LEADER_A, request as scenarioRequest } from '../support/scenario.js';

const json = (value: unknown): string => JSON.stringify(value);

/** Runs `f`, giving its JSON or the message it throws. */
function outcome(f: () => unknown): string {
  try {
    return json(f());
  } catch (e) {
    return `throws: ${(e as Error).message}`;
  }
}

describe('leader facts and prices kept with an indexed tape', () => {
  it('a request gives the same response on a tape that served other requests first', () => {
    const other = fc.record({
      wallets: fc.subarray([0, 1, 2, 3], { minLength: 1 }),
      close_all: fc.boolean(),
      to_date: fc.constantFrom('2024-03-10', '2024-03-11', '2024-03-13'),
    });
    fc.assert(
      fc.property(scenarioArb({}, 40), fc.array(other, { maxLength: 3 }), (s, others) => {
        const fresh = outcome(() => simulate(indexTape(s.tape), s.request, s.options));
        const shared = indexTape(s.tape);
        for (const o of others) {
          // Other leader sets and windows fill the cache first (leaders named by position in the tape).
          const wallets = [...new Set(s.tape.swaps.map((w) => w.wallet))];
          const picked = o.wallets.map((k) => wallets[k]).filter((w): w is string => w !== undefined);
          const request: SimulatorRequestInput = {
            ...s.request,
            ...o,
            wallets: picked.length > 0 ? picked : s.request.wallets,
          };
          outcome(() => simulate(shared, request, s.options));
        }
        expect(outcome(() => simulate(shared, s.request, s.options))).toBe(fresh);
      }),
      { numRuns: 200 },
    );
  });

  it('holds on a benchmark-shaped tape too, leaders followed in another order', () => {
    const generator = new TapeGenerator({ swaps: 4_000, leaders: 10, tokens: 30, marketWallets: 40, days: 3, seed: 3 });
    const tape = { ...generator.header, swaps: [...generator.swaps()] };
    const request = generator.request() as unknown as SimulatorRequestInput;
    const reversed = { ...request, wallets: [...request.wallets].reverse(), max_dupe_buy_times: 5 };
    const shared = indexTape(tape);
    simulate(shared, reversed);
    expect(json(simulate(shared, request))).toBe(json(simulate(indexTape(tape), request)));
    expect(json(simulate(shared, reversed))).toBe(json(simulate(indexTape(tape), reversed)));
  });
});

describe('replay switches and hooks', () => {
  it('without the chart (and without trade records), the deals are the same and nothing more is kept', () => {
    fc.assert(
      fc.property(scenarioArb({}, 40), (s) => {
        const parsed = parseSimulatorRequest(s.request);
        if (!parsed.success) return;
        const tape = indexTape(s.tape);
        const options = resolveEngineOptions(s.options);
        let full: ReturnType<typeof replay>;
        let bare: ReturnType<typeof replay>;
        let sums: ReturnType<typeof replay>;
        try {
          full = replay(tape, parsed.data, options);
          bare = replay(indexTape(s.tape), parsed.data, options, { chart: false });
          sums = replay(tape, parsed.data, options, { chart: false, trades: false });
        } catch {
          return; // a tape the engine cannot use fails either way (checked elsewhere)
        }
        const tradesOf = (run: typeof full): unknown[][] =>
          run.deals.map((d) => run.trades.rowsOf(d.index).map((row) => run.trades.get(row)));
        expect(bare.points.length).toBe(0);
        expect(tradesOf(bare)).toEqual(tradesOf(full));
        const state = (run: typeof full): unknown[] =>
          run.deals.map((d) =>
            [d.pnlRealized, d.qty, d.boughtUsd, d.tradeCount, d.closeTime, d.specialTag].map(String),
          );
        const printed = (run: typeof full): unknown[] =>
          run.deals.map((d) => [d.networkFee, d.botFee, d.slippageLoss, d.soldQty].map(String));
        const totals = (run: typeof full): unknown[] => Object.values(run.totals).map(String);
        expect(state(bare)).toEqual(state(full));
        expect(printed(bare)).toEqual(printed(full));
        expect(totals(bare)).toEqual(totals(full));
        // Without trade records the deals' sums the summary needs are the same, and so are the
        // replay's totals; the printed-only sums stay zero and no row is kept.
        expect(state(sums)).toEqual(state(full));
        expect(totals(sums)).toEqual(totals(full));
        expect(
          sums.deals.every(
            (d) =>
              sums.trades.rowsOf(d.index).length === 0 &&
              d.networkFee.isZero() &&
              d.slippageLoss.isZero() &&
              d.soldQty.isZero(),
          ),
        ).toBe(true);
        expect(full.deals.map((d) => full.trades.rowsOf(d.index).length)).toEqual(full.deals.map((d) => d.tradeCount));
        expect(windowEnd(s.request)).toBe(full.window.end);
      }),
      { numRuns: 150 },
    );
  });

  it('progress reports climb to the total and change nothing', () => {
    // 70,000 market swaps a second apart, and a leader's buy and sell among them.
    const swaps = Array.from({ length: 70_000 }, (_, i) => ({
      wallet: 'M',
      token: 'T',
      type: 'buy' as 'buy' | 'sell',
      time: DAY_START + i,
      quantity: 1,
      usd_price: 1 + (i % 7),
    }));
    swaps[10] = { ...swaps[10]!, wallet: LEADER_A };
    swaps[60_000] = { ...swaps[60_000]!, wallet: LEADER_A, type: 'sell' };
    const tape = indexTape({ network: 'sol', native_prices: FLAT_NATIVE, swaps });
    const request = scenarioRequest();
    const seen: [number, number][] = [];
    const withHook = json(simulate(tape, request, {}, { onProgress: (done, total) => seen.push([done, total]) }));
    expect(withHook).toBe(json(simulate(tape, request)));
    expect(seen.length).toBeGreaterThanOrEqual(2); // every 65,536 swaps, and at the end
    expect(seen.at(-1)).toEqual([70_000, 70_000]);
    expect(seen.every(([done], i) => i === 0 || done >= seen[i - 1]![0])).toBe(true);
  });
});
