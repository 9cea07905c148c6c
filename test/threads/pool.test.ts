/**
 * The worker-thread pool every user shares (the sweep, the queue worker, the HTTP service): tasks
 * in flight on several workers, a worker that throws or exits, the handshake, closing.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { builtScript } from '../../src/built-script.js';
import { NoWorkerError, PoolClosedError, WorkerLostError, WorkerPool } from '../../src/threads/pool.js';
import { PROJECT_ROOT } from '../support/paths.js';

// Stand-in workers in plain JavaScript: the pool's protocol without the engine.
const dir = mkdtempSync(join(tmpdir(), 'copysim-threads-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function workerFile(name: string, body: string): URL {
  const file = join(dir, `${name}.mjs`);
  const imports = [
    "import { existsSync, writeFileSync } from 'node:fs';",
    "import { parentPort, threadId, workerData } from 'node:worker_threads';",
  ];
  writeFileSync(file, `${imports.join('\n')}\n${body}`);
  return pathToFileURL(file);
}

/** Answers `{ n, delay }` with `{ n, thread }` after `delay` ms; `throw` throws, `exit` exits. */
const ECHO = workerFile(
  'echo',
  `parentPort.on('message', (task) => {
    if (task.throw) throw new Error('the task threw: ' + task.n);
    if (task.exit !== undefined) process.exit(task.exit);
    setTimeout(() => parentPort.postMessage({ n: task.n, thread: threadId }), task.delay ?? 0);
  });`,
);

/** Says whether it can serve first: refuses once the marker file exists (a task creates it, then exits). */
const HANDSHAKE = workerFile(
  'handshake',
  `const marker = workerData.marker;
  parentPort.postMessage(existsSync(marker) ? { refused: 'the marker is there' } : { ready: true });
  parentPort.on('message', (task) => {
    if (task.breakReplacements) {
      writeFileSync(marker, '');
      process.exit(5);
    }
    setTimeout(() => parentPort.postMessage({ n: task.n }), task.delay ?? 0);
  });`,
);

interface Task {
  readonly n: number;
  readonly delay?: number;
  readonly throw?: boolean;
  readonly exit?: number;
  readonly breakReplacements?: boolean;
}
type Reply = { readonly n: number; readonly thread?: number };

const handshake = (message: unknown): Error | null => {
  const first = message as { ready?: boolean; refused?: string };
  return first.ready === true ? null : new Error(first.refused);
};

describe('WorkerPool', () => {
  it('runs several tasks in flight, each answered with its own reply, queueing beyond the workers', async () => {
    const pool = await WorkerPool.start<Task, Reply>({ url: ECHO, size: 2 });
    try {
      expect(pool.size).toBe(2);
      const replies = Array.from({ length: 6 }, (_, n) => pool.run({ n, delay: 30 - 5 * n }));
      expect(pool.queued).toBe(4);
      const answered = await Promise.all(replies);
      expect(answered.map((r) => r.n)).toEqual([0, 1, 2, 3, 4, 5]);
      // Both workers took tasks.
      expect(new Set(answered.map((r) => r.thread)).size).toBe(2);
      expect(pool.queued).toBe(0);
    } finally {
      await pool.close();
    }
  });

  it('fails the task of a worker that throws with its error, replaces the worker and goes on', async () => {
    const pool = await WorkerPool.start<Task, Reply>({ url: ECHO, size: 1 });
    try {
      const thrown = pool.run({ n: 1, throw: true });
      const next = pool.run({ n: 2 }); // waits behind the one that throws
      const error = await thrown.catch((e: unknown) => e);
      expect(error).toBeInstanceOf(WorkerLostError);
      expect((error as WorkerLostError).message).toBe('the task threw: 1');
      expect((error as WorkerLostError).error?.message).toBe('the task threw: 1');
      expect(await next).toMatchObject({ n: 2 });
      expect(pool.size).toBe(1);
    } finally {
      await pool.close();
    }
  });

  it('fails the task of a worker that exits with its exit code', async () => {
    const pool = await WorkerPool.start<Task, Reply>({ url: ECHO, size: 2 });
    try {
      const [exited, other] = await Promise.allSettled([pool.run({ n: 1, exit: 4 }), pool.run({ n: 2, delay: 20 })]);
      expect(exited.status === 'rejected' && exited.reason).toEqual(new WorkerLostError(4));
      const reason = (exited as PromiseRejectedResult).reason as unknown;
      expect(reason).toMatchObject({ exitCode: 4, message: 'exit code 4', error: undefined });
      expect(other).toEqual({ status: 'fulfilled', value: expect.objectContaining({ n: 2 }) });
    } finally {
      await pool.close();
    }
  });

  it('close fails the tasks running and waiting, and any task given after it', async () => {
    const pool = await WorkerPool.start<Task, Reply>({ url: ECHO, size: 1 });
    const unanswered = Promise.allSettled([pool.run({ n: 1, delay: 1_000 }), pool.run({ n: 2 })]);
    await pool.close();
    for (const outcome of await unanswered) {
      expect(outcome.status === 'rejected' && outcome.reason).toBeInstanceOf(PoolClosedError);
    }
    await expect(pool.run({ n: 3 })).rejects.toBeInstanceOf(PoolClosedError);
    expect(pool.size).toBe(0);
  });

  it('starts only once every worker passes the handshake; a refusal fails the start with its error', async () => {
    const marker = join(dir, 'refuse-now');
    writeFileSync(marker, '');
    const starting = WorkerPool.start({ url: HANDSHAKE, size: 2, workerData: { marker }, handshake });
    await expect(starting).rejects.toThrow('the marker is there');
  });

  it('fails the waiting tasks when no lost worker can be replaced', async () => {
    const marker = join(dir, 'refuse-later');
    const pool = await WorkerPool.start<Task, Reply>({ url: HANDSHAKE, size: 1, workerData: { marker }, handshake });
    try {
      expect(await pool.run({ n: 1 })).toEqual({ n: 1 });
      const breaking = pool.run({ n: 2, breakReplacements: true });
      const waiting = pool.run({ n: 3 });
      await expect(breaking).rejects.toEqual(new WorkerLostError(5));
      await expect(waiting).rejects.toBeInstanceOf(NoWorkerError);
      expect(existsSync(marker)).toBe(true);
      expect(pool.size).toBe(0);
    } finally {
      await pool.close();
    }
  });

  it('names a worker script under dist/ when it runs from the TypeScript source', () => {
    const script = fileURLToPath(builtScript('threads/sweep-thread.js'));
    expect(script).toBe(join(PROJECT_ROOT, 'dist/src/threads/sweep-thread.js'));
  });
});
