/**
 * The durable log of a live run, in-process: what a run logs reads back to the same state; the
 * log is a tape that `simulate` (streamed), `readTapeFile` and `convert` read by the run's rules,
 * each to the run's response; a write cut short by a crash is cut off, and a damaged log refused.
 */
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { simulate } from '../../src/simulate.js';
import { simulateJsonlFile } from '../../src/io/jsonl-tape.js';
import { readTapeFile } from '../../src/io/read-tape.js';
import { convertTapeFile } from '../../src/io/convert-tape.js';
import { LiveRun, partsText } from '../../src/live/live-run.js';
import { LiveSimulation } from '../../src/live/live-simulation.js';
import { FeedRefusal } from '../../src/live/errors.js';
import { feedOf } from './support/feeder.js';
import { generatedFeeds } from './support/generated.js';

let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));

async function submitAll(run: LiveRun, batches: readonly unknown[][]): Promise<void> {
  for (const batch of batches) {
    try {
      await run.submit(batch);
    } catch (e) {
      if (e instanceof FeedRefusal && e.code === 'run_ended') return;
      throw e;
    }
  }
}

describe('the feed log of a live run', () => {
  const feed = generatedFeeds(2000)[2]!;
  const expected = JSON.stringify(simulate(feed.tape, feed.request));
  const plan = (windowEnd: number) => ({ lateness: 4, windowEnd, seed: 21, maxBatch: 60 });

  it("is a tape every reader reads to the run's response", async () => {
    dir = mkdtempSync(join(tmpdir(), 'copysim-live-'));
    const run = await LiveRun.open({ dir, request: feed.request, lateness: 4 });
    await submitAll(run, feedOf(feed.tape, plan(run.simulation.window.end)));
    expect(run.simulation.ended).toBe(true);
    await run.close();
    const log = join(dir, 'feed.jsonl');
    expect(readFileSync(join(dir, 'response.json'), 'utf8')).toBe(`${expected}\n`);
    expect(JSON.stringify(simulateJsonlFile(log, feed.request))).toBe(expected);
    expect(JSON.stringify(simulate(readTapeFile(log), feed.request))).toBe(expected);
    convertTapeFile(log, join(dir, 'tape.jsonl'));
    expect(JSON.stringify(simulateJsonlFile(join(dir, 'tape.jsonl'), feed.request))).toBe(expected);
  });

  it('reads back to where it was, and the state so far is the same from the log as from memory', async () => {
    dir = mkdtempSync(join(tmpdir(), 'copysim-live-'));
    const first = await LiveRun.open({ dir, request: feed.request, lateness: 4 });
    const batches = feedOf(feed.tape, plan(first.simulation.window.end));
    const half = Math.floor(batches.length / 2);
    await submitAll(first, batches.slice(0, half));
    const before = first.stateText();
    const inMemory = new LiveSimulation({ request: feed.request, lateness: 4 });
    for (const batch of batches.slice(0, half)) inMemory.push(batch);
    expect(partsText(inMemory.responseParts())).toBe(before);
    const counts = { ...first.simulation.counts };
    await first.close();
    const second = await LiveRun.open({ dir, request: feed.request });
    expect(second.simulation.counts).toEqual(counts);
    expect(second.simulation.lateness).toBe(4);
    expect(second.stateText()).toBe(before);
    await submitAll(second, batches.slice(half));
    expect(second.stateText()).toBe(expected);
    await second.close();
  });

  it('cuts off a write a crash left half done; refuses a damaged log and another lateness', async () => {
    dir = mkdtempSync(join(tmpdir(), 'copysim-live-'));
    const first = await LiveRun.open({ dir, request: feed.request, lateness: 4 });
    const batches = feedOf(feed.tape, plan(first.simulation.window.end));
    await submitAll(first, batches.slice(0, 10));
    const inputs = first.status().log.inputs;
    await first.close();
    const log = join(dir, 'feed.jsonl');
    const whole = readFileSync(log, 'utf8');
    // Two lines of a batch whose commit line never made it, the second cut in the middle.
    appendFileSync(log, `${JSON.stringify(feed.tape.swaps[0])}\n{"wallet":"W","tok`);
    const second = await LiveRun.open({ dir, request: feed.request });
    expect(second.status().log.inputs).toBe(inputs);
    await second.close();
    expect(readFileSync(log, 'utf8')).toBe(whole);
    await expect(LiveRun.open({ dir, request: feed.request, lateness: 3 })).rejects.toThrow(
      /recorded with a lateness of 4 s, not 3/,
    );
    writeFileSync(log, whole.replace(/\n\{"wallet"/, '\n{"wallet" oops'));
    await expect(LiveRun.open({ dir, request: feed.request })).rejects.toThrow(
      /feed\.jsonl: line \d+: not valid JSON before a commit line/,
    );
    writeFileSync(
      log,
      whole.replace(/\{"commit":(\d+)\}\n$/, (_m, n) => `{"commit":${Number(n) + 1}}\n`),
    );
    await expect(LiveRun.open({ dir, request: feed.request })).rejects.toThrow(
      /the commit line counts \d+ inputs, but \d+ precede it/,
    );
  });

  it('writes the final response as simulate prints it', async () => {
    dir = mkdtempSync(join(tmpdir(), 'copysim-live-'));
    const run = await LiveRun.open({ dir, request: feed.request });
    await submitAll(run, feedOf(feed.tape, { ...plan(run.simulation.window.end), lateness: 2 }));
    expect(partsText(run.simulation.responseParts())).toBe(expected);
    await run.close();
  });
});
