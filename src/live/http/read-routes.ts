import type { FastifyInstance } from 'fastify';
import type { ServerResponse } from 'node:http';
import type { LiveRun } from '../live-run.js';

/** How often, at most, the server-sent events carry the status, and the response (rebuilt from the log). */
export const STATUS_EVERY_MS = 250;
export const STATE_EVERY_MS = 1000;

/**
 * The run's reads: `GET /state` the response so far (the final one once the run has ended, as
 * `copysim simulate` prints it), `GET /status` where the feed stands, and `GET /events` both
 * as server-sent events (`status` at most 4 times a second, `state` at most once a second, and
 * each at once when the run ends).
 */
export function readRoutes(app: FastifyInstance, run: LiveRun): void {
  const streams = new Set<() => void>();
  app.get('/state', async (_request, reply) => reply.type('application/json; charset=utf-8').send(run.stateText()));
  app.get('/status', async () => run.status());
  app.get('/events', (request, reply) => {
    reply.hijack();
    const stop = streamEvents(reply.raw, run);
    const end = (): void => {
      stop();
      streams.delete(end);
      reply.raw.end();
    };
    streams.add(end);
    request.raw.on('close', end);
  });
  // Before the server closes: it waits for its connections, and an event stream never ends on its own.
  app.addHook('preClose', async () => {
    for (const end of [...streams]) end();
  });
}

/** Sends the run's events to one client; gives the function that stops them. */
function streamEvents(raw: ServerResponse, run: LiveRun): () => void {
  raw.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
  });
  const send = (event: string, data: string): void => {
    raw.write(`event: ${event}\ndata: ${data}\n\n`);
  };
  const status = throttled(STATUS_EVERY_MS, () => send('status', JSON.stringify(run.status())));
  const state = throttled(STATE_EVERY_MS, () => {
    try {
      send('state', run.stateText());
    } catch (e) {
      send('failure', JSON.stringify({ detail: (e as Error).message }));
    }
  });
  const unsubscribe = run.onChange(() => {
    const now = run.simulation.ended || run.simulation.error !== null;
    status.request(now);
    state.request(now);
  });
  status.request(true);
  state.request(true);
  return () => {
    unsubscribe();
    status.cancel();
    state.cancel();
  };
}

/** Runs `task` when asked, at most once every `everyMs` (asked meanwhile: once, when the time comes). */
function throttled(everyMs: number, task: () => void): { request(now?: boolean): void; cancel(): void } {
  let last = -Infinity;
  let timer: NodeJS.Timeout | null = null;
  const run = (): void => {
    timer = null;
    last = Date.now();
    task();
  };
  return {
    request(now = false) {
      if (now) {
        if (timer !== null) clearTimeout(timer);
        run();
      } else if (timer === null) {
        timer = setTimeout(run, Math.max(0, last + everyMs - Date.now()));
      }
    },
    cancel() {
      if (timer !== null) clearTimeout(timer);
      timer = null;
    },
  };
}
