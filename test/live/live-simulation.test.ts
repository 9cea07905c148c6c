/**
 * The promise of a live run, in the library: fed a tape as a live feed delivers it (random
 * batches, jitter inside the lateness, ticks), its final response is byte for byte `simulate`'s
 * on the tape, for the cases of model 1.2, 2.0 and 3.0 and a generated tape; and what it refuses.
 */
import { describe, expect, it } from 'vitest';
import { simulate } from '../../src/simulate.js';
import { requestWindow, type SimulatorRequest } from '../../src/model/request.js';
import { LiveSimulation } from '../../src/live/live-simulation.js';
import { FeedRefusal } from '../../src/live/errors.js';
import { present, SHARED } from '../support/paths.js';
import { sharedCases, type SharedCase } from './support/cases.js';
import { feedOf } from './support/feeder.js';
import { generatedFeeds } from './support/generated.js';

const available = present(SHARED);
if (!available) console.warn(`live-simulation cases skipped: ${SHARED} is absent on this machine`);

/** Feeds `batches` into a new run; a batch after the run has ended is refused, and the feeder stops. */
function runFeed(c: SharedCase, lateness: number, seed: number, maxBatch: number): LiveSimulation {
  const live = new LiveSimulation({ request: c.request, options: c.options, lateness, keepInputs: false });
  const end = requestWindow(live.request as SimulatorRequest).end;
  for (const batch of feedOf(c.tape, { lateness, windowEnd: end, seed, maxBatch })) {
    try {
      live.push(batch);
    } catch (e) {
      if (e instanceof FeedRefusal && e.code === 'run_ended') break;
      throw e;
    }
  }
  return live;
}

describe.skipIf(!available)('a live run equals the backtest', () => {
  for (const model of ['1.2', '2.0', '3.0'] as const) {
    it.each(sharedCases(model).map((c) => [c.name, c] as const))(`model ${model}: %s`, (_name, c) => {
      const expected = JSON.stringify(simulate(c.tape as never, c.request, c.options));
      for (const [lateness, seed, maxBatch] of [
        [0, 1, 1],
        [2, 2, 7],
        [5, 3, 40],
        [30, 4, 200],
      ] as const) {
        const live = runFeed(c, lateness, seed, maxBatch);
        expect(live.ended).toBe(true);
        expect(JSON.stringify(live.response())).toBe(expected);
      }
    });
  }
});

describe('a live run of a generated tape equals the backtest', () => {
  it.each(generatedFeeds().map((f) => [f.model, f] as const))('model %s', (_model, feed) => {
    const expected = JSON.stringify(simulate(feed.tape, feed.request));
    const c = { name: feed.model, tape: feed.tape, request: feed.request, options: {} };
    for (const [lateness, seed, maxBatch] of [
      [2, 11, 30],
      [10, 12, 500],
    ] as const) {
      const live = runFeed(c, lateness, seed, maxBatch);
      expect(live.ended).toBe(true);
      expect(JSON.stringify(live.response())).toBe(expected);
    }
  });

  it('gives the run so far on the way, without disturbing it', () => {
    const feed = generatedFeeds(1500)[2]!;
    const expected = JSON.stringify(simulate(feed.tape, feed.request));
    const live = new LiveSimulation({ request: feed.request, lateness: 3 });
    const batches = feedOf(feed.tape, { lateness: 3, windowEnd: live.window.end, seed: 5, maxBatch: 40 });
    const looks: { deals: number; open: number }[] = [];
    for (const [i, batch] of batches.entries()) {
      live.push(batch);
      if (i % 9 !== 4 || live.ended) continue;
      // As it stands: the window not closed, so no final time-fix and no copy skipped as after it.
      const soFar = live.response();
      expect(soFar.deals.some((d) => d.special_tag === 'sell_timefix_final')).toBe(false);
      expect(soFar.skipped_copies!.some((k) => k.reason === 'after_window')).toBe(false);
      looks.push({ deals: soFar.deals.length, open: soFar.deals.filter((d) => d.status === 'open').length });
    }
    expect(looks.length).toBeGreaterThan(5);
    expect(looks.some((l) => l.open > 0)).toBe(true);
    expect(looks.map((l) => l.deals)).toEqual(looks.map((l) => l.deals).sort((a, b) => a - b));
    expect(JSON.stringify(live.response())).toBe(expected);
  });
});

describe('what a live run refuses', () => {
  const request = generatedFeeds(200)[0]!.request;
  const swap = (time: number, extra: object = {}) => ({
    wallet: 'W1',
    token: 'T1',
    type: 'buy',
    time,
    quantity: '1',
    usd_price: '2',
    ...extra,
  });
  const refusal = (live: LiveSimulation, batch: unknown): FeedRefusal => {
    try {
      live.push(batch);
    } catch (e) {
      if (e instanceof FeedRefusal) return e;
      throw e;
    }
    throw new Error('the batch was taken');
  };

  it('a late swap, naming the item and its time; nothing of its batch counts', () => {
    const live = new LiveSimulation({ request, lateness: 2 });
    live.push([swap(1_709_300_010)]);
    const late = refusal(live, [swap(1_709_300_011), swap(1_709_300_012), swap(1_709_300_007)]);
    expect(late).toMatchObject({ code: 'late_input', status: 409, item: 2, field: 'time' });
    expect(late.message).toMatch(/^item 2: time: time 1709300007 .* more than the lateness of 2 s/);
    expect(live.counts.swaps).toBe(1);
    live.push([swap(1_709_300_008)]);
    expect(live.counts.swaps).toBe(2);
  });

  it("a swap breaking the tape's rules, and an item that is no input", () => {
    const live = new LiveSimulation({ request });
    expect(refusal(live, [swap(1_709_300_000), swap(1_709_300_001, { usd_price: -3 })])).toMatchObject({
      code: 'invalid_input',
      status: 400,
      item: 1,
      field: 'usd_price',
    });
    expect(refusal(live, [swap(1_709_300_000, { type: 'hold' })])).toMatchObject({ item: 0, field: 'type' });
    expect(refusal(live, [42])).toMatchObject({ code: 'invalid_input', item: 0 });
    expect(refusal(live, [{ tick: 1.5 }])).toMatchObject({ code: 'invalid_input', field: 'tick' });
    expect(refusal(live, [{ native_prices: [[1, -1]] }])).toMatchObject({
      code: 'invalid_input',
      field: 'native_prices[0][1]',
    });
    expect(live.counts).toMatchObject({ swaps: 0, ticks: 0, nativePrices: 0 });
  });

  it('a native price that would change a fee already charged', () => {
    const live = new LiveSimulation({ request, lateness: 2 });
    live.push({ native_prices: [[1_709_300_000, 150]] });
    live.advanceTo(1_709_300_100);
    expect(refusal(live, { native_prices: [[1_709_300_098, 151]] })).toMatchObject({
      code: 'late_input',
      field: 'native_prices[0][0]',
    });
    expect(
      refusal(live, {
        native_prices: [
          [1_709_299_999 + 200, 151],
          [1_709_200_000, 1],
        ],
      }),
    ).toMatchObject({ item: 0, field: 'native_prices[1][0]' });
    live.push({ native_prices: [[1_709_300_099, 152]] });
    expect(live.counts.nativePrices).toBe(2);
  });

  it('anything once the feed has passed window_end', () => {
    const live = new LiveSimulation({ request, lateness: 2 });
    live.advanceTo(live.window.end + 3);
    expect(live.ended).toBe(true);
    expect(refusal(live, [swap(live.window.end + 4)])).toMatchObject({ code: 'run_ended', status: 409 });
  });
});
