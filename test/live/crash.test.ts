/**
 * `copysim follow` killed with SIGKILL (kill -9, by pid) at random points of a feed, batches in
 * flight, and started again on the same log each time: nothing acknowledged is lost, nothing is
 * applied twice (the feeder resumes after the inputs the log holds, as the status says), and the
 * final response is the backtest's, byte for byte.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { Random } from '../../bench/random.js';
import { requestWindow, type SimulatorRequest } from '../../src/model/request.js';
import { cli } from '../support/cli.js';
import { ensureBuild } from '../server/support/build.js';
import { feedOf } from './support/feeder.js';
import { feedAll, feedSteps, follow, getJson, post, type FeedStep } from './support/follow.js';
import { generatedFeeds } from './support/generated.js';

const KILLS = 24;
const work = mkdtempSync(join(tmpdir(), 'copysim-follow-crash-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The step after which the log holds `inputs` inputs (the feed's steps are all or nothing). */
function resumeAt(steps: readonly FeedStep[], inputs: number): number {
  let sum = 0;
  for (let i = 0; i < steps.length; i++) {
    if (sum === inputs) return i;
    sum += (steps[i]!.body as unknown[]).length;
  }
  if (sum === inputs) return steps.length;
  throw new Error(`the log holds ${inputs} inputs: not a whole number of batches`);
}

it(`loses nothing acknowledged and applies nothing twice, killed ${KILLS} times`, async () => {
  const build = await ensureBuild();
  const feed = generatedFeeds(3000, 17)[2]!;
  const requestFile = join(work, 'request.json');
  const tapeFile = join(work, 'tape.json');
  writeFileSync(requestFile, JSON.stringify(feed.request));
  writeFileSync(tapeFile, JSON.stringify(feed.tape));
  const end = requestWindow(feed.request as unknown as SimulatorRequest).end;
  const steps = feedSteps(feedOf(feed.tape, { lateness: 3, windowEnd: end, seed: 99, maxBatch: 30 }));
  const random = new Random(2024);
  const dir = join(work, 'run');
  let acknowledged = 0;
  let kills = 0;
  for (let next = 0; kills < KILLS; kills++) {
    const run = await follow(build, requestFile, dir, ['--lateness', '3']);
    const held = (await getJson(run.url, '/status')).log.inputs as number;
    expect(held).toBeGreaterThanOrEqual(acknowledged);
    next = resumeAt(steps, held);
    // A few batches acknowledged, then one more sent and the process killed while it is in flight.
    const upTo = Math.min(steps.length - 1, next + 1 + random.int(Math.ceil((1.6 * steps.length) / KILLS)));
    next = await feedAll(run.url, steps.slice(0, upTo), next);
    acknowledged = steps.slice(0, next).reduce((n, s) => n + (s.body as unknown[]).length, 0);
    const inFlight = post(run.url, steps[next]!.path, steps[next]!.body).catch(() => null);
    await new Promise((resolve) => setTimeout(resolve, random.int(4)));
    await run.kill();
    const answer = await inFlight;
    if (answer?.status === 202) acknowledged += (steps[next]!.body as unknown[]).length;
  }
  const last = await follow(build, requestFile, dir);
  const held = (await getJson(last.url, '/status')).log.inputs as number;
  expect(held).toBeGreaterThanOrEqual(acknowledged);
  await feedAll(last.url, steps, resumeAt(steps, held));
  expect(await getJson(last.url, '/status')).toMatchObject({ ended: true, error: null });
  expect(await last.stop()).toBe(0);
  expect(kills).toBeGreaterThanOrEqual(20);
  const onTape = await cli('simulate', '--tape', tapeFile, '--request', requestFile);
  const onLog = await cli('simulate', '--tape', join(dir, 'feed.jsonl'), '--request', requestFile);
  expect(readFileSync(join(dir, 'response.json'), 'utf8')).toBe(onTape.out);
  expect(onLog.out).toBe(onTape.out);
}, 300_000);
