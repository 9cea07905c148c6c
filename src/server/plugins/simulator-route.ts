import type { FastifyPluginAsync } from 'fastify';
import { WARNINGS_HEADER } from '../../diagnose/warning.js';
import { RequestError } from '../../model/errors.js';
import { parseSimulatorRequest, type Network } from '../../model/request.js';
import { OPERATIONS, routePath } from '../operations.js';
import { requireServed } from '../request-checks.js';
import type { Simulator } from '../simulation/pool.js';
import { paidAccessOf, REPLAYED_HEADER } from './paid-access.js';

/** JSON in ASCII only (`\uXXXX` escapes): a header value cannot carry other characters. */
export function asciiJson(value: unknown): string {
  return JSON.stringify(value).replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

export interface SimulatorRouteOptions {
  readonly simulator: Simulator;
  /** The served networks are its keys. */
  readonly analyticsIndexes: ReadonlyMap<Network, unknown>;
}

/**
 * `POST /v1/wallets/simulator`: the engine's response byte for byte, run by `simulator` (worker
 * threads), its credits in the `X-Credits-Spent` and `X-Credits-Remaining` headers and its
 * warnings, if any, in `X-Copysim-Warnings`.
 */
export const simulatorRoute: FastifyPluginAsync<SimulatorRouteOptions> = async (app, options) => {
  const { simulator, analyticsIndexes } = options;
  const access = paidAccessOf(app);
  const spec = OPERATIONS.find((operation) => operation.id === 'simulate')!;
  app.post(routePath(spec.path), async (request, reply) => {
    const key = await access.authenticate(request, reply, spec);
    const parsed = parseSimulatorRequest(request.body);
    if (!parsed.success) throw new RequestError(parsed.error);
    requireServed(analyticsIndexes, parsed.data.network);
    const done = await access.paid(key, spec, request, async () => {
      const output = await simulator.run(parsed.data.network, parsed.data);
      const headers: Record<string, string> = {};
      if (output.warnings.length > 0) headers[WARNINGS_HEADER] = asciiJson(output.warnings);
      return { json: output.json, headers };
    });
    if (done === undefined) return reply;
    if (done.replayed) reply.header(REPLAYED_HEADER, 'true');
    return reply
      .headers(done.result.headers)
      .header('x-credits-spent', String(done.credits.spent))
      .header('x-credits-remaining', String(done.credits.remaining))
      .type('application/json; charset=utf-8')
      .send(done.result.json);
  });
};
