import type { FastifyInstance } from 'fastify';
import { FeedRefusal } from '../errors.js';
import type { LiveRun } from '../live-run.js';

/** A body that must be there: an empty one is refused, naming what belongs in it. */
function required(body: unknown, expected: string): unknown {
  if (body === undefined) throw new FeedRefusal('invalid_input', `the body is empty: expected ${expected}`);
  return body;
}

/**
 * The feed's inputs, each answered 202 with a receipt once on disk and applied (a refused
 * batch: 400, 409 or 422 naming the item and field, and nothing of it kept):
 * - `POST /feed`: swaps in the tape's form (a JSON array, or JSONL), and in the same body any
 *   input in its log form (`{"tick": T}`, `{"tokens": {…}}`, `{"native_prices": […]}`);
 * - `POST /feed/tokens`: the tape's `tokens` map;
 * - `POST /feed/native-prices`: `[time, usd]` points of the native coin;
 * - `POST /feed/tick`: `{"time": T}`, the feed's clock;
 * - `POST /feed/helius`: the list of enhanced transactions a Helius webhook posts.
 */
export function feedRoutes(app: FastifyInstance, run: LiveRun): void {
  app.post('/feed', async (request, reply) => {
    const body = required(request.body, 'swaps: a JSON array, or one JSON value a line (JSONL)');
    return reply.code(202).send(await run.submit(Array.isArray(body) ? body : [body]));
  });
  app.post('/feed/tokens', async (request, reply) => {
    const tokens = required(request.body, 'the tape\'s tokens map {"ADDRESS": {"name", "symbol"}, …}');
    return reply.code(202).send(await run.submit([{ tokens }]));
  });
  app.post('/feed/native-prices', async (request, reply) => {
    const points = required(request.body, 'native-coin prices [[time, usd], …]');
    return reply.code(202).send(await run.submit([{ native_prices: points }]));
  });
  app.post('/feed/tick', async (request, reply) => {
    const body = required(request.body, '{"time": T}') as { time?: unknown } | null;
    if (typeof body !== 'object' || body === null || !('time' in body)) {
      throw new FeedRefusal('invalid_input', 'expected {"time": T}, T the feed\'s time in seconds', { field: 'time' });
    }
    try {
      return reply.code(202).send(await run.submit([{ tick: body.time }]));
    } catch (e) {
      // The tick's time is the body's `time`, not the log line's `tick`.
      if (e instanceof FeedRefusal && e.field === 'tick') throw new FeedRefusal(e.code, e.reason, { field: 'time' });
      throw e;
    }
  });
  app.post('/feed/helius', async (request, reply) => {
    const payload = required(request.body, 'the list of enhanced transactions a Helius webhook posts');
    return reply.code(202).send(await run.submitHelius(payload));
  });
}
