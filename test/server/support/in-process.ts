/**
 * The service in this process (createServer, Fastify's inject): for what a child process cannot
 * show, such as a simulation held open at will, or a clock that jumps a day.
 */
import type { FastifyInstance } from 'fastify';
import {
  buildAnalyticsIndex,
  createServer,
  simulate,
  type Ledger,
  type RateLimit,
  type RateLimiter,
  type SimulationAnswer,
  type Simulator,
} from './api.js';
import type { Answer } from './http.js';
import { ETH_TAPE, SOL_TAPE } from './tapes.js';

/** A simulator that answers as the engine does, each run waiting for `gate` when one is set. */
export class GatedSimulator implements Simulator {
  gate: Promise<void> | undefined;
  runs = 0;

  async run(network: 'sol' | 'eth', request: unknown): Promise<SimulationAnswer> {
    this.runs++;
    await this.gate;
    return { json: JSON.stringify(simulate(network === 'sol' ? SOL_TAPE : ETH_TAPE, request as never)), warnings: [] };
  }

  /** Holds every run until the returned function is called. */
  close(): () => void {
    let open!: () => void;
    this.gate = new Promise((resolve) => (open = resolve));
    return () => {
      this.gate = undefined;
      open();
    };
  }
}

export interface InProcessOptions {
  readonly ledger: Ledger;
  readonly simulator?: Simulator;
  readonly rateLimiter?: RateLimiter;
  readonly defaultRate?: RateLimit;
}

/** The service over the test tapes, not listening: requests go through {@link send}. */
export function inProcessService(options: InProcessOptions): FastifyInstance {
  return createServer({
    ledger: options.ledger,
    simulator: options.simulator ?? new GatedSimulator(),
    analyticsIndexes: new Map([
      ['sol', buildAnalyticsIndex(SOL_TAPE)],
      ['eth', buildAnalyticsIndex(ETH_TAPE)],
    ]),
    ...(options.rateLimiter !== undefined ? { rateLimiter: options.rateLimiter } : {}),
    ...(options.defaultRate !== undefined ? { defaultRate: options.defaultRate } : {}),
  });
}

export interface SendOptions {
  readonly key?: string;
  readonly body?: unknown;
  readonly headers?: Readonly<Record<string, string>>;
}

/** One request to an in-process service, answered as {@link Answer}. */
export async function send(
  app: FastifyInstance,
  method: 'GET' | 'POST',
  url: string,
  options: SendOptions = {},
): Promise<Answer> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key !== undefined) headers['x-api-key'] = options.key;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const response = await app.inject({
    method,
    url,
    headers,
    ...(options.body !== undefined ? { payload: JSON.stringify(options.body) } : {}),
  });
  let json: unknown;
  try {
    json = JSON.parse(response.body);
  } catch {
    json = undefined;
  }
  const responseHeaders = new Headers();
  for (const [name, value] of Object.entries(response.headers)) {
    if (value !== undefined) responseHeaders.set(name, Array.isArray(value) ? value.join(', ') : String(value));
  }
  return { status: response.statusCode, headers: responseHeaders, text: response.body, json };
}
