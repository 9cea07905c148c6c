/**
 * `copysim follow` as a process (the built CLI), fed over HTTP as a live feed would feed it:
 * generated tapes and the real PumpSwap capture (as tape swaps, and as Helius enhanced
 * transactions), with random batches, jitter inside the lateness and ticks. When the feed passes
 * window_end, DIR/response.json is byte for byte `copysim simulate` on the original tape and on
 * DIR/feed.jsonl, for requests of model 1.2, 2.0 and 3.0.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestWindow, type SimulatorRequest } from '../../src/model/request.js';
import { cli } from '../support/cli.js';
import { present, REAL_DATA_DIR } from '../support/paths.js';
import { ensureBuild, type Build } from '../server/support/build.js';
import { feedOf, heliusFeedOf } from './support/feeder.js';
import { feedAll, feedSteps, follow, getJson, type FeedStep } from './support/follow.js';
import { generatedFeeds } from './support/generated.js';
import { heliusTape, heliusTransactions, pumpSwapTape, requestsOf } from './support/real-feeds.js';

const realData = present(REAL_DATA_DIR);
if (!realData)
  console.warn(`the PumpSwap feeds of the follow test skipped: ${REAL_DATA_DIR} is absent on this machine`);

let build: Build;
let work: string;
beforeAll(async () => {
  build = await ensureBuild();
  work = mkdtempSync(join(tmpdir(), 'copysim-follow-'));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

const windowEnd = (request: unknown): number => requestWindow(request as SimulatorRequest).end;

/**
 * Runs a follow on `steps` and checks the promise: the response written at the end equals
 * `simulate` on the original tape and on the log.
 */
async function promiseHolds(
  name: string,
  tape: unknown,
  request: unknown,
  steps: (end: number) => FeedStep[],
  lateness: number,
): Promise<void> {
  const dir = join(work, name);
  const requestFile = join(work, `${name}.request.json`);
  const tapeFile = join(work, `${name}.tape.json`);
  writeFileSync(requestFile, JSON.stringify(request));
  writeFileSync(tapeFile, JSON.stringify(tape));
  const run = await follow(build, requestFile, dir, ['--lateness', String(lateness)]);
  try {
    await feedAll(run.url, steps(windowEnd(request)));
    const status = await getJson(run.url, '/status');
    expect(status).toMatchObject({ ended: true, error: null, held_swaps: 0 });
    expect(status.refused).toEqual({ invalid_input: 0, not_a_swap: 0, late_input: 0, run_ended: 0, run_failed: 0 });
  } finally {
    expect(await run.stop()).toBe(0);
  }
  const onTape = await cli('simulate', '--tape', tapeFile, '--request', requestFile);
  const onLog = await cli('simulate', '--tape', join(dir, 'feed.jsonl'), '--request', requestFile);
  expect(onTape.code).toBe(0);
  expect(JSON.parse(onTape.out).deals.length).toBeGreaterThan(0);
  const response = readFileSync(join(dir, 'response.json'), 'utf8');
  expect(response).toBe(onTape.out);
  expect(onLog.out).toBe(onTape.out);
}

describe('copysim follow over HTTP gives the backtest of what it received', () => {
  for (const feed of generatedFeeds(3000, 9)) {
    it(`a generated tape, model ${feed.model}`, async () => {
      const steps = (end: number) =>
        feedSteps(feedOf(feed.tape, { lateness: 3, windowEnd: end, seed: 40 + Number(feed.model[0]), maxBatch: 120 }));
      await promiseHolds(`generated-${feed.model}`, feed.tape, feed.request, steps, 3);
    });
  }

  describe.skipIf(!realData)('the real PumpSwap capture', () => {
    const tape = realData ? pumpSwapTape() : null;
    const transactions = realData ? heliusTransactions() : [];
    const fromHelius = realData ? heliusTape(transactions) : null;
    for (const model of ['1.2', '2.0', '3.0'] as const) {
      it(`as tape swaps, model ${model}`, async () => {
        const request = requestsOf(tape!)[model];
        const steps = (end: number) =>
          feedSteps(feedOf(tape!, { lateness: 2, windowEnd: end, seed: 7, maxBatch: 200 }));
        await promiseHolds(`pumpswap-${model}`, tape, request, steps, 2);
      });
      it(`as Helius webhooks, model ${model}`, async () => {
        const request = requestsOf(fromHelius!)[model];
        const steps = (end: number) =>
          heliusFeedOf(fromHelius!.native_prices!, transactions, {
            lateness: 5,
            windowEnd: end,
            seed: 8,
            maxBatch: 150,
          });
        await promiseHolds(`helius-${model}`, fromHelius, request, steps, 5);
      });
    }
  });
});
