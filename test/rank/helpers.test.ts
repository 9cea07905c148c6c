/**
 * A local rank on helper threads (`RankHelpers`, `--threads`): whoever copies a group of
 * wallets, the rows are those of this thread alone, byte for byte; a helper that cannot help
 * leaves its groups to this thread.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import { indexTape } from '../../src/engine/tape-index.js';
import {
  orderCounters,
  RankHelpers,
  wordOrderOf,
  type HelperOrder,
  type HelperReply,
  type HelperStart,
  type WordOrder,
} from '../../src/rank/helpers.js';
import { outOfSample, outOfSampleWith, rankWallets, rankWith } from '../../src/rank/pipeline.js';
import {
  candidateWallets,
  copyWallets,
  rankContext,
  rankRequest,
  selectRows,
  wordResultsOf,
  type Candidate,
} from '../../src/rank/rank.js';
import { wordCopyOf } from '../../src/rank/word-copy.js';
import { WalletScreen } from '../../src/rank/screen.js';
import { prepare } from '../../src/simulate.js';
import { builtScript } from '../../src/built-script.js';
import { cli } from '../support/cli.js';
import { PROJECT_ROOT } from '../support/paths.js';

const EXAMPLE = join(PROJECT_ROOT, 'fixtures', 'example');
const TAPE = join(EXAMPLE, 'tape-sol.json');
const REQUEST = join(EXAMPLE, 'request-sol.json');
const tape = indexTape(JSON.parse(readFileSync(TAPE, 'utf8')));
const request: unknown = JSON.parse(readFileSync(REQUEST, 'utf8'));
/** The example's request without its strategy: its rows are made in double words. */
const plainRequest: unknown = { ...(request as object), strategy: null };

const started: RankHelpers[] = [];
function helpers(tapePath: string, count: number, walletsAWalk: number, inWords = false): RankHelpers {
  const made = RankHelpers.start(tapePath, {}, count, inWords, walletsAWalk);
  started.push(made);
  return made;
}
afterAll(() => Promise.all(started.map((h) => h.close())));

/** A copy order of these candidates, four wallets a group, as the command's thread posts it. */
function copyOrder(
  parsed: HelperOrder['settings']['request'],
  candidates: readonly Candidate[],
  words?: WordOrder,
): HelperOrder {
  return {
    id: 1,
    task: { kind: 'copy' },
    swaps: tape.swaps.length,
    settings: { request: parsed, engineOptions: {} },
    candidates,
    walletsAWalk: 4,
    counters: orderCounters(candidates.length, 4),
    ...(words !== undefined ? { words } : {}),
  };
}

/** A helper thread started with `start` serving `order` alone: each group's reply, by group. */
async function served(start: HelperStart, order: HelperOrder): Promise<HelperReply[]> {
  const worker = new Worker(builtScript('rank/rank-thread.js'), { workerData: start });
  const byGroup: HelperReply[] = [];
  await new Promise<void>((resolve, reject) => {
    worker.on('message', (reply: HelperReply) => {
      if ('read' in reply) return;
      if ('group' in reply) byGroup[reply.group] = reply;
      else if ('error' in reply) reject(new Error(reply.error));
      else resolve();
    });
    worker.postMessage(order);
  });
  await worker.terminate();
  return byGroup;
}

describe('a helper thread', () => {
  it('copies every group no other thread takes: the rows of this thread, in order', async () => {
    const { parsed, engineOptions } = prepare(rankRequest(request, undefined), {});
    const context = rankContext(tape, parsed, engineOptions);
    const candidates = candidateWallets(context, undefined);
    const order = copyOrder(parsed, candidates);
    const replies = await served({ tapePath: TAPE, tapeHeader: {}, helper: 1, readTape: true }, order);
    const byGroup = replies.map((reply) => ('rows' in reply ? reply.rows : []));
    expect(byGroup.length).toBe(Math.ceil(candidates.length / 4));
    expect(byGroup.flat()).toEqual(copyWallets(context, candidates, undefined, Infinity));
    expect(Atomics.load(order.counters, 1)).toBe(candidates.length);
  });

  it('refuses an order for another tape than the one it read', async () => {
    const worker = new Worker(builtScript('rank/rank-thread.js'), {
      workerData: { tapePath: TAPE, tapeHeader: {}, helper: 1, readTape: true } satisfies HelperStart,
    });
    const { parsed } = prepare(rankRequest(request, undefined), {});
    const reply = await new Promise<HelperReply>((resolve) => {
      worker.on('message', (message: HelperReply) => 'order' in message && resolve(message));
      worker.postMessage({
        id: 7,
        task: { kind: 'copy' },
        swaps: tape.swaps.length + 1,
        settings: { request: parsed, engineOptions: {} },
        candidates: [],
        walletsAWalk: 4,
        counters: orderCounters(10, 4),
      } satisfies HelperOrder);
    });
    await worker.terminate();
    expect(reply).toEqual({ order: 7, error: 'the tape file changed while the rank read it' });
  });
});

describe('a helper that reads no tape (rows in double words)', () => {
  it('copies from the rows this thread shares: the results of this thread, in order', async () => {
    const { parsed, engineOptions } = prepare(rankRequest(plainRequest, undefined), {});
    const context = rankContext(tape, parsed, engineOptions);
    const candidates = candidateWallets(context, undefined);
    const order = copyOrder(parsed, candidates, wordOrderOf(context));
    const start = { tapePath: join(EXAMPLE, 'no-such-tape.json'), tapeHeader: {}, helper: 1, readTape: false };
    const replies = await served(start, order);
    const byGroup = replies.map((reply) => ('words' in reply ? reply.words : []));
    const here = wordResultsOf(wordCopyOf(context), candidates);
    expect(here.filter((r) => r !== null).length).toBe(candidates.length); // every wallet decided
    expect(byGroup.flat()).toEqual(here);
  });

  it('a rank with such helpers gives the exact rank, with and without top', async () => {
    const both = helpers(TAPE, 2, 3, true);
    await both.read();
    const { parsed, engineOptions } = prepare(rankRequest(plainRequest, undefined), {});
    const context = rankContext(tape, parsed, engineOptions);
    const exact = copyWallets(context, candidateWallets(context, undefined), undefined, undefined, false);
    const rows = await rankWith(both.runner, tape, plainRequest, {});
    expect(rows).toEqual(selectRows(exact, {}));
    expect(await rankWith(both.runner, tape, plainRequest, { top: 5 })).toEqual(rows.slice(0, 5));
  });
});

describe('a rank with helpers', () => {
  it('gives the rows of a rank in this thread, a window or two', async () => {
    const both = helpers(TAPE, 2, 1);
    await both.read(); // so that they take groups beside this thread
    const runner = both.runner;
    expect(await rankWith(runner, tape, request, { sortBy: 'roi_total' })).toEqual(
      rankWallets(tape, request, { sortBy: 'roi_total' }),
    );
    expect(await outOfSampleWith(runner, tape, request, '2024-03-12', { top: 3 })).toEqual(
      outOfSample(tape, request, '2024-03-12', { top: 3 }),
    );
  });

  it('screens with the helpers as in this thread: a rank with top gives the same rows', async () => {
    const both = helpers(TAPE, 2, 3);
    await both.read();
    const { parsed, engineOptions } = prepare(rankRequest(request, undefined), {});
    const context = rankContext(tape, parsed, engineOptions);
    const candidates = candidateWallets(context, undefined);
    const settings = { request: parsed, engineOptions: {} };
    const shared = await both.runner.screen!(context, candidates, settings, 'pnl_total');
    expect([...shared].sort((a, b) => a[0] - b[0])).toEqual(
      [...new WalletScreen(context).bounds(candidates, 'pnl_total')].sort((a, b) => a[0] - b[0]),
    );
    for (const top of [1, 5]) {
      expect(await rankWith(both.runner, tape, request, { top })).toEqual(rankWallets(tape, request).slice(0, top));
    }
  });

  it('copies here the groups of a helper that cannot read the tape', async () => {
    const runner = helpers(join(EXAMPLE, 'no-such-tape.json'), 1, 3).runner;
    const progress: number[] = [];
    const rows = await rankWith(runner, tape, request, { onProgress: (done) => progress.push(done) });
    expect(rows).toEqual(rankWallets(tape, request));
    expect(progress.at(-1)).toBe(rows.length);
  });

  it('--threads: the same output with 1 and 2; 0 and --queue refused', async () => {
    const args = ['rank', '--tape', TAPE, '--request', REQUEST, '--format', 'jsonl'];
    const one = await cli(...args, '--threads', '1');
    const two = await cli(...args, '--threads', '2');
    expect(one.code).toBe(0);
    expect(two).toEqual(one);
    // A request whose rows are made in double words: its helper reads no tape.
    const plainFile = join(mkdtempSync(join(tmpdir(), 'copysim-rank-')), 'plain-request.json');
    writeFileSync(plainFile, JSON.stringify(plainRequest));
    const plain = ['rank', '--tape', TAPE, '--request', plainFile, '--format', 'jsonl'];
    const plainOne = await cli(...plain, '--threads', '1');
    expect(plainOne.code).toBe(0);
    expect(await cli(...plain, '--threads', '2')).toEqual(plainOne);
    const zero = await cli(...args, '--threads', '0');
    expect([zero.code, zero.err]).toEqual([1, expect.stringContaining('--threads must be a whole number ≥ 1')]);
    const queued = await cli(...args, '--threads', '2', '--queue', 'redis://127.0.0.1:1');
    expect([queued.code, queued.err]).toEqual([1, expect.stringContaining('--threads and --queue do not go together')]);
  });
});
