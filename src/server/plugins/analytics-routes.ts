import type { FastifyPluginAsync } from 'fastify';
import type { AnalyticsIndex } from '../../analytics/index.js';
import { formatPath, RequestError } from '../../model/errors.js';
import type { Network } from '../../model/request.js';
import { addressProblem } from '../address.js';
import { ANALYTICS, type AnalyticsOperation } from '../analytics-binding.js';
import { HttpError } from '../http-error.js';
import { OPERATIONS, routePath } from '../operations.js';
import { requireServed, validationError } from '../request-checks.js';
import { paidAccessOf, REPLAYED_HEADER } from './paid-access.js';

type Indexes = ReadonlyMap<Network, AnalyticsIndex>;

/**
 * Checks an analytics input against its schema and picks the index of its network: the input's
 * `network`, else `listNetwork`.
 */
function analyticsIndexFor(
  indexes: Indexes,
  listNetwork: Network | undefined,
  bound: AnalyticsOperation,
  input: unknown,
  address: string,
): AnalyticsIndex {
  const checked = bound.input.safeParse(input ?? {});
  if (!checked.success) {
    // The library words its own 400s (unknown parameters, …): let it throw one.
    bound.run([...indexes.values()][0]!, address, input);
    throw new RequestError({
      code: 'validation_error',
      detail: checked.error.issues.map((i) => ({ path: formatPath(i.path), message: i.message })),
    });
  }
  const network = (checked.data as { network?: Network }).network ?? listNetwork;
  if (network === undefined) throw validationError('network', 'no tape is served here');
  requireServed(indexes, network);
  return indexes.get(network)!;
}

export interface AnalyticsRoutesOptions {
  /** The analytics index of each served network. */
  readonly analyticsIndexes: Indexes;
}

/**
 * The wallet analytics reads and the wallet list, each answered in the envelope
 * `{result, credits}`: one route for each operation of the table that is not the simulator.
 *
 * To add one: add its function and schemas to `ANALYTICS` (analytics-binding.ts, with its id in
 * `AnalyticsOperationId`) and its route, price and summary to `OPERATIONS` (operations.ts). This
 * plugin then serves it, the OpenAPI document lists it, and a wrong method on its path is a 405.
 */
export const analyticsRoutes: FastifyPluginAsync<AnalyticsRoutesOptions> = async (app, options) => {
  const indexes = options.analyticsIndexes;
  const access = paidAccessOf(app);
  // The wallet list without a `network` lists one network's wallets: sol's when served.
  const listNetwork: Network | undefined = indexes.has('sol') ? 'sol' : [...indexes.keys()][0];
  for (const spec of OPERATIONS) {
    if (spec.id === 'simulate') continue; // simulatorRoute's
    const bound = ANALYTICS.operations[spec.id];
    app.route({
      method: spec.method,
      url: routePath(spec.path),
      handler: async (request, reply) => {
        const key = await access.authenticate(request, reply, spec);
        const input: unknown = spec.input === 'query' ? request.query : request.body;
        const address = (request.params as { address?: string }).address ?? '';
        const index = analyticsIndexFor(indexes, listNetwork, bound, input, address);
        if (spec.path.includes('{address}')) {
          const problem = addressProblem(index.network, address);
          if (problem !== null) throw new HttpError(400, { code: 'invalid_address', detail: problem });
        }
        const done = await access.paid(key, spec, request, async () => ({
          json: JSON.stringify(bound.run(index, address, input)),
          headers: {},
        }));
        if (done === undefined) return reply;
        if (done.replayed) reply.header(REPLAYED_HEADER, 'true');
        // The envelope as JSON.stringify({ result, credits }) writes it, around the stored result.
        return reply
          .type('application/json; charset=utf-8')
          .send(`{"result":${done.result.json},"credits":${JSON.stringify(done.credits)}}`);
      },
    });
  }
};
