/**
 * What `copysim follow` refuses, over HTTP: a malformed body, a swap breaking the tape's rules, a
 * Helius payload that is not a swap, a late swap, an unknown route. Each gets a 4xx naming the
 * item and field, and nothing of a refused batch is applied or logged.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuild } from '../server/support/build.js';
import { follow, getJson, post, type FollowProcess } from './support/follow.js';
import { generatedFeeds } from './support/generated.js';

const feed = generatedFeeds(200)[0]!;
const swaps = feed.tape.swaps;
const T = swaps[0]!.time;
let work: string;
let run: FollowProcess;

beforeAll(async () => {
  const build = await ensureBuild();
  work = mkdtempSync(join(tmpdir(), 'copysim-follow-bad-'));
  writeFileSync(join(work, 'request.json'), JSON.stringify(feed.request));
  run = await follow(build, join(work, 'request.json'), join(work, 'run'), ['--lateness', '2']);
  expect(
    (await post(run.url, '/feed', [{ tokens: feed.tape.tokens }, { native_prices: feed.tape.native_prices }])).status,
  ).toBe(202);
  expect((await post(run.url, '/feed', [{ ...swaps[0]!, time: T + 10 }])).status).toBe(202);
});

afterAll(async () => {
  await run?.stop();
  rmSync(work, { recursive: true, force: true });
});

const logText = (): string => readFileSync(join(work, 'run', 'feed.jsonl'), 'utf8');

describe('copysim follow refuses bad input, keeping nothing of it', () => {
  it('a body that is not JSON, and a JSONL line that is not', async () => {
    const before = logText();
    expect(await post(run.url, '/feed', '[{"wallet": ', 'application/json')).toMatchObject({
      status: 400,
      body: { code: 'invalid_input' },
    });
    const jsonl = `${JSON.stringify({ ...swaps[1], time: T + 10 })}\n{oops\n`;
    const answer = await post(run.url, '/feed', jsonl, 'application/x-ndjson');
    expect(answer).toMatchObject({ status: 400, body: { code: 'invalid_input', item: 1 } });
    expect(answer.body.detail).toMatch(/line 2 of the body is not valid JSON/);
    expect(await post(run.url, '/feed', '', 'application/json')).toMatchObject({
      status: 400,
      body: { code: 'invalid_input' },
    });
    expect((await post(run.url, '/feed', 'a,b', 'text/csv')).status).toBe(415);
    expect(logText()).toBe(before);
  });

  it("a swap breaking the tape's rules, naming the item and field", async () => {
    const before = logText();
    const batch = [
      { ...swaps[1], time: T + 10 },
      { ...swaps[2], time: T + 11, quantity: '-5' },
    ];
    const answer = await post(run.url, '/feed', batch);
    expect(answer).toMatchObject({ status: 400, body: { code: 'invalid_input', item: 1, field: 'quantity' } });
    expect(answer.body.detail).toMatch(/^item 1: quantity: expected a decimal > 0/);
    expect(await post(run.url, '/feed', [{ ...swaps[1], time: 1.5 }])).toMatchObject({
      status: 400,
      body: { item: 0, field: 'time' },
    });
    expect(await post(run.url, '/feed/native-prices', [[T, 'cheap']])).toMatchObject({
      status: 400,
      body: { field: 'native_prices[0][1]' },
    });
    expect(await post(run.url, '/feed/tick', { when: T })).toMatchObject({ status: 400, body: { field: 'time' } });
    expect(await post(run.url, '/feed/tick', { time: 'soon' })).toMatchObject({ status: 400, body: { field: 'time' } });
    expect(logText()).toBe(before);
  });

  it('a Helius payload that is not a swap', async () => {
    const before = logText();
    const transfer = {
      signature: '5vxSjCbdL6Wh',
      type: 'TRANSFER',
      timestamp: T + 10,
      feePayer: swaps[0]!.wallet,
      accountData: [],
    };
    const answer = await post(run.url, '/feed/helius', [transfer]);
    expect(answer).toMatchObject({ status: 422, body: { code: 'not_a_swap', item: 0, field: 'type' } });
    expect(answer.body.detail).toMatch(/type TRANSFER is not a swap/);
    expect(await post(run.url, '/feed/helius', { not: 'a list' })).toMatchObject({
      status: 400,
      body: { code: 'invalid_input' },
    });
    expect(await post(run.url, '/feed/helius', [])).toMatchObject({ status: 422, body: { code: 'not_a_swap' } });
    expect(logText()).toBe(before);
  });

  it('a late swap, with its batch; one inside the lateness is taken', async () => {
    const before = logText();
    const answer = await post(run.url, '/feed', [
      { ...swaps[1], time: T + 9 },
      { ...swaps[2], time: T + 7 },
    ]);
    expect(answer).toMatchObject({ status: 409, body: { code: 'late_input', item: 1, field: 'time' } });
    expect(answer.body.detail).toMatch(/more than the lateness of 2 s before the feed's latest time/);
    expect(logText()).toBe(before);
    expect(await post(run.url, '/feed', [{ ...swaps[2], time: T + 8 }])).toMatchObject({
      status: 202,
      body: { accepted: 1 },
    });
  });

  it('an unknown route, and a known one with another method', async () => {
    const unknown = await post(run.url, '/feeds', []);
    expect(unknown).toMatchObject({ status: 404, body: { code: 'not_found' } });
    expect(unknown.body.detail).toMatch(/no route POST \/feeds; the routes are POST \/feed, /);
    const wrong = await fetch(`${run.url}/state`, { method: 'POST' });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('GET');
  });

  it('counts what it refused, and logged only what it took', async () => {
    const status = await getJson(run.url, '/status');
    expect(status.refused).toMatchObject({ invalid_input: 9, not_a_swap: 2, late_input: 1 });
    expect(status.log.inputs).toBe(4);
    expect(status.inputs).toMatchObject({ swaps: 2, tokens: 1 });
  });
});
