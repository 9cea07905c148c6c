import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import type { AnalyticsIndex } from '../analytics/index.js';
import { WARNINGS_HEADER } from '../diagnose/warning.js';
import { formatPath, InputError, RequestError } from '../model/errors.js';
import { parseSimulatorRequest, type Network } from '../model/request.js';
import { addressProblem } from './address.js';
import { ANALYTICS, type AnalyticsOperation } from './analytics-binding.js';
import { CreditMeter, keyDisabled, type CreditsSpent } from './credits.js';
import { HttpError } from './http-error.js';
import type { KeyStore } from './keys/key-store.js';
import { buildOpenApiDocument } from './openapi.js';
import { OPERATIONS, routePath, type OperationSpec } from './operations.js';
import type { Simulator } from './simulation/pool.js';
import { loadFastify } from './service-dependencies.js';
import { registerWebPage } from './web-page.js';

/** Everything the HTTP service needs; {@link startServer} assembles it from files. */
export interface ServiceOptions {
  readonly store: KeyStore;
  readonly simulator: Simulator;
  /** The analytics index of each served network; its keys are the networks served. */
  readonly analyticsIndexes: ReadonlyMap<Network, AnalyticsIndex>;
  /** Largest request body, bytes; default 64 KiB (a simulator request of 100 wallets is ~6 KiB). */
  readonly bodyLimit?: number;
  /** Log every request (pino JSON lines on standard output). */
  readonly logger?: boolean;
}

export const DEFAULT_BODY_LIMIT = 64 * 1024;
/** Longest path parameter (Fastify's default): an address is at most 44 characters. */
const MAX_PARAM_LENGTH = 100;

/** JSON in ASCII only (`\uXXXX` escapes): a header value cannot carry other characters. */
export function asciiJson(value: unknown): string {
  return JSON.stringify(value).replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

function validationError(path: string, message: string): RequestError {
  return new RequestError({ code: 'validation_error', detail: [{ path, message }] });
}

/** Maps an error of any layer to a status and a JSON body. */
function toHttpError(error: unknown, bodyLimit: number): HttpError {
  if (error instanceof HttpError) return error;
  if (error instanceof RequestError) return new HttpError(400, error.body);
  if (error instanceof InputError) return new HttpError(500, { code: 'tape_error', detail: error.message });
  const e = error as FastifyError;
  switch (e.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new HttpError(413, {
        code: 'body_too_large',
        detail: `the body is over the limit of ${bodyLimit} bytes (${Math.round((bodyLimit / 1024) * 10) / 10} KiB); a simulator request of 100 wallets is about 6 KiB`,
      });
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return new HttpError(414, {
        code: 'uri_too_long',
        detail: `a path parameter is over ${MAX_PARAM_LENGTH} characters; a wallet address has at most 44`,
      });
    case 'FST_ERR_BAD_URL':
      return new HttpError(400, { code: 'bad_url', detail: 'the URL is not valid percent-encoding (a % must be followed by two hex digits): encode the address' });
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new HttpError(415, { code: 'unsupported_media_type', detail: 'send the body as application/json' });
  }
  if (typeof e.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 500) {
    return new HttpError(e.statusCode, { code: 'bad_request', detail: e.message });
  }
  return new HttpError(500, { code: 'internal_error', detail: 'the request could not be completed' });
}

/** The routes as patterns, for telling a wrong method (405) from an unknown path (404). */
const ROUTES: ReadonlyArray<{ readonly method: string; readonly pattern: RegExp }> = [
  ...OPERATIONS.map((spec) => ({ method: spec.method, pattern: new RegExp(`^${spec.path.replace(/\{\w+\}/g, '[^/]+')}$`) })),
  { method: 'GET', pattern: /^\/v1\/openapi\.json$/ },
  { method: 'GET', pattern: /^\/health$/ },
];

/** The methods a path answers; empty for an unknown path. */
function methodsOf(path: string): string[] {
  return ROUTES.filter((r) => r.pattern.test(path)).map((r) => r.method);
}

/**
 * Builds the HTTP service (Fastify): the interface's six operations under `/v1`, API keys in
 * `X-API-Key`, credits held while a request runs and charged only when it succeeds, and the
 * OpenAPI 3.1 document at `/v1/openapi.json`, and the web page at `/` (src/server/web-page.ts). Checks run in this order: route (404), key (401,
 * 403 `key_disabled`), input (400), credits (403 `insufficient_credits`), the operation, the charge.
 *
 * @example
 * const app = createServer({
 *   store: KeyStore.open('copysim.db', { now: () => Math.floor(Date.now() / 1000) }),
 *   simulator: await SimulationPool.start({ tapes: [{ network: 'sol', file: 'tape-sol.json' }] }),
 *   analyticsIndexes: new Map([['sol', buildAnalyticsIndex(readTapeFile('tape-sol.json'))]]),
 * });
 * await app.listen({ host: '127.0.0.1', port: 8080 });
 */
export function createServer(options: ServiceOptions): FastifyInstance {
  const { store, simulator } = options;
  const bodyLimit = options.bodyLimit ?? DEFAULT_BODY_LIMIT;
  const meter = new CreditMeter(store);
  const indexes = options.analyticsIndexes;
  // The wallet list without a `network` lists one network's wallets: sol's when served.
  const listNetwork: Network | undefined = indexes.has('sol') ? 'sol' : [...indexes.keys()][0];
  // No automatic HEAD routes: a HEAD of a read would be charged for a body it never gets.
  const app = loadFastify()({
    logger: options.logger ?? false,
    bodyLimit,
    exposeHeadRoutes: false,
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    // Errors met before routing (a bad URL, a parameter too long) answer in the same {code, detail}.
    frameworkErrors: (error, _request, reply) => {
      const http = toHttpError(error, bodyLimit);
      // Fastify types this reply by route generics it does not have here.
      const plain = reply as unknown as { code(n: number): { send(body: unknown): void } };
      plain.code(http.statusCode).send(http.body);
    },
  });

  // JSON only; an empty body is `undefined` (so `POST /v1/wallets` may be sent bare).
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit }, (_request, text, done) => {
    if (text === '') return done(null, undefined);
    try {
      done(null, JSON.parse(text as string));
    } catch (e) {
      done(validationError('', `the body is not valid JSON: ${(e as Error).message}`), undefined);
    }
  });

  app.setErrorHandler((error, request, reply) => {
    const http = toHttpError(error, bodyLimit);
    if (http.statusCode >= 500) request.log.error(error);
    return reply.code(http.statusCode).headers(http.headers).send(http.body);
  });
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0]!;
    const allowed = methodsOf(path);
    if (allowed.length > 0) {
      return reply
        .code(405)
        .header('allow', allowed.join(', '))
        .send({ code: 'method_not_allowed', detail: `${path} answers ${allowed.join(', ')}, not ${request.method}` });
    }
    return reply.code(404).send({
      code: 'not_found',
      detail: `no route ${request.method} ${path}; the routes are listed at /v1/openapi.json`,
    });
  });
  app.get('/health', async () => ({ status: 'ok' }));

  /** The key of a request: 401 when missing or unknown, 403 when disabled. */
  function authenticate(request: FastifyRequest): number {
    const header = request.headers['x-api-key'];
    const key = Array.isArray(header) ? header[0] : header;
    if (key === undefined || key === '') {
      throw new HttpError(401, { code: 'unauthorized', detail: 'missing X-API-Key header' });
    }
    const record = store.findByKey(key);
    if (record === undefined) throw new HttpError(401, { code: 'unauthorized', detail: 'unknown API key' });
    if (record.disabled) throw keyDisabled();
    return record.id;
  }

  function requireServed(network: Network): void {
    if (!indexes.has(network)) {
      const list = [...indexes.keys()].join(', ') || 'none';
      throw validationError('network', `no ${network} tape is served here (served: ${list})`);
    }
  }

  /** Checks an analytics input against its schema and picks the index of its network. */
  function analyticsIndexFor(bound: AnalyticsOperation, input: unknown, address: string): AnalyticsIndex {
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
    requireServed(network);
    return indexes.get(network)!;
  }

  /**
   * Holds the operation's credits, runs `work`, and charges on success. Undefined when the
   * client went away meanwhile: nothing is charged for an answer nobody receives.
   */
  async function paid<T>(
    keyId: number,
    spec: OperationSpec,
    request: FastifyRequest,
    work: () => Promise<T>,
  ): Promise<{ output: T; credits: CreditsSpent } | undefined> {
    const hold = meter.hold(keyId, spec.cost);
    try {
      const output = await work();
      if (request.raw.socket?.destroyed === true) return undefined;
      return { output, credits: await hold.charge(spec.id) };
    } finally {
      hold.release();
    }
  }

  const openApi = buildOpenApiDocument(OPERATIONS);
  app.get('/v1/openapi.json', async () => openApi);
  registerWebPage(app);

  for (const spec of OPERATIONS) {
    if (spec.id === 'simulate') {
      app.post(routePath(spec.path), async (request, reply) => {
        const keyId = authenticate(request);
        const parsed = parseSimulatorRequest(request.body);
        if (!parsed.success) throw new RequestError(parsed.error);
        requireServed(parsed.data.network);
        const done = await paid(keyId, spec, request, () => simulator.run(parsed.data.network, parsed.data));
        if (done === undefined) return reply;
        if (done.output.warnings.length > 0) reply.header(WARNINGS_HEADER, asciiJson(done.output.warnings));
        return reply
          .header('x-credits-spent', String(done.credits.spent))
          .header('x-credits-remaining', String(done.credits.remaining))
          .type('application/json; charset=utf-8')
          .send(done.output.json);
      });
      continue;
    }
    const bound = ANALYTICS.operations[spec.id];
    app.route({
      method: spec.method,
      url: routePath(spec.path),
      handler: async (request, reply) => {
        const keyId = authenticate(request);
        const input: unknown = spec.input === 'query' ? request.query : request.body;
        const address = (request.params as { address?: string }).address ?? '';
        const index = analyticsIndexFor(bound, input, address);
        if (spec.path.includes('{address}')) {
          const problem = addressProblem(index.network, address);
          if (problem !== null) throw new HttpError(400, { code: 'invalid_address', detail: problem });
        }
        const done = await paid(keyId, spec, request, async () => bound.run(index, address, input));
        if (done === undefined) return reply;
        return reply.send({ result: done.output, credits: done.credits });
      },
    });
  }
  return app;
}
