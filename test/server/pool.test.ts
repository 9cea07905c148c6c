import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { HttpError, InputError, RequestError, SimulationPool } from './support/api.js';

// Stand-in workers speaking the pool's protocol, in plain JavaScript: they test the pool's
// queueing, failures and restarts without the engine (the HTTP tests run the real worker).
const dir = mkdtempSync(join(tmpdir(), 'copysim-pool-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function workerFile(name: string, body: string): URL {
  const file = join(dir, `${name}.mjs`);
  writeFileSync(file, `import { parentPort } from 'node:worker_threads';\n${body}`);
  return pathToFileURL(file);
}

const ECHO = workerFile(
  'echo',
  `parentPort.on('message', (job) => {
    const r = job.request;
    if (r.crash) process.exit(3);
    if (r.invalid) return parentPort.postMessage({ type: 'failed', id: job.id, failure: { kind: 'request', body: { code: 'invalid_date_range', detail: 'x' } } });
    if (r.tape) return parentPort.postMessage({ type: 'failed', id: job.id, failure: { kind: 'input', message: 'no native prices' } });
    setTimeout(() => parentPort.postMessage({ type: 'done', id: job.id, json: JSON.stringify({ n: r.n, network: job.network }) }), r.delay ?? 0);
  });
  parentPort.postMessage({ type: 'ready' });`,
);
const FATAL = workerFile(
  'fatal',
  `parentPort.postMessage({ type: 'fatal', message: 'tape.json: tape: swap 3: usd_price: expected a decimal > 0' });`,
);

describe('SimulationPool', () => {
  it('answers every job with its own result, queueing beyond the workers', async () => {
    const pool = await SimulationPool.start({ tapes: [], size: 2, workerUrl: ECHO });
    try {
      expect(pool.size).toBe(2);
      const answers = await Promise.all(Array.from({ length: 6 }, (_, n) => pool.run('sol', { n, delay: 20 - 3 * n })));
      expect(answers).toEqual(
        Array.from({ length: 6 }, (_, n) => ({ json: JSON.stringify({ n, network: 'sol' }), warnings: [] })),
      );
    } finally {
      await pool.close();
    }
  });

  it('rebuilds the errors of a job: RequestError for a request, InputError for the tape', async () => {
    const pool = await SimulationPool.start({ tapes: [], size: 1, workerUrl: ECHO });
    try {
      await expect(pool.run('sol', { invalid: true })).rejects.toEqual(
        new RequestError({ code: 'invalid_date_range', detail: 'x' }),
      );
      await expect(pool.run('sol', { tape: true })).rejects.toBeInstanceOf(InputError);
    } finally {
      await pool.close();
    }
  });

  it('fails the job of a crashed worker, replaces the worker and goes on', async () => {
    const pool = await SimulationPool.start({ tapes: [], size: 1, workerUrl: ECHO });
    try {
      const crashed = pool.run('sol', { crash: true });
      const next = pool.run('sol', { n: 7 }); // queued behind the crash
      await expect(crashed).rejects.toThrow('the simulation worker stopped: exit code 3');
      expect((await next).json).toBe(JSON.stringify({ n: 7, network: 'sol' }));
      expect(pool.size).toBe(1);
    } finally {
      await pool.close();
    }
  });

  it('answers 503 busy beyond its queue', async () => {
    const pool = await SimulationPool.start({ tapes: [], size: 1, maxQueue: 2, workerUrl: ECHO });
    try {
      const running = [pool.run('sol', { n: 1, delay: 50 }), pool.run('sol', { n: 2 }), pool.run('sol', { n: 3 })];
      // One job runs, two wait: the queue is full.
      const refused = await pool.run('sol', { n: 4 }).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(HttpError);
      expect((refused as HttpError).statusCode).toBe(503);
      expect((refused as HttpError).body.code).toBe('busy');
      expect(await Promise.all(running)).toHaveLength(3);
    } finally {
      await pool.close();
    }
  });

  it('does not start when a worker cannot load its tapes, and says why', async () => {
    await expect(SimulationPool.start({ tapes: [], size: 2, workerUrl: FATAL })).rejects.toThrow(
      'tape.json: tape: swap 3: usd_price: expected a decimal > 0',
    );
  });

  it('names a missing worker file and how to build it', async () => {
    await expect(SimulationPool.start({ tapes: [], workerUrl: pathToFileURL(join(dir, 'none.js')) })).rejects.toThrow(
      /none\.js is missing: build with "npx tsc -p tsconfig\.build\.json"/,
    );
  });
});
