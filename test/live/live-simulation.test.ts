/**
 * The promise of a live run, in the library: fed a tape as a live feed delivers it (random
 * batches, jitter inside the lateness, ticks), its final response is byte for byte `simulate`'s
 * on the tape, for the cases of model 1.2, 2.0 and 3.0.
 */
import { describe, expect, it } from 'vitest';
import { simulate } from '../../src/simulate.js';
import { requestWindow, type SimulatorRequest } from '../../src/model/request.js';
import { LiveSimulation } from '../../src/live/live-simulation.js';
import { FeedRefusal } from '../../src/live/errors.js';
import { present, SHARED } from '../support/paths.js';
import { sharedCases, type SharedCase } from './support/cases.js';
import { feedOf } from './support/feeder.js';

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
      for (const [lateness, seed, maxBatch] of [[0, 1, 1], [2, 2, 7], [5, 3, 40], [30, 4, 200]] as const) {
        const live = runFeed(c, lateness, seed, maxBatch);
        expect(live.ended).toBe(true);
        expect(JSON.stringify(live.response())).toBe(expected);
      }
    });
  }
});
