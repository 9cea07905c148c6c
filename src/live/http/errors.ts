import type { FastifyError, FastifyInstance } from 'fastify';
import { InputError, RequestError } from '../../model/errors.js';
import { FeedRefusal } from '../errors.js';
import type { LiveRun } from '../live-run.js';

/** The routes of `copysim follow`, as its 404s and 405s list them. */
export const ROUTES: readonly (readonly [method: string, path: string])[] = [
  ['POST', '/feed'],
  ['POST', '/feed/tokens'],
  ['POST', '/feed/native-prices'],
  ['POST', '/feed/tick'],
  ['POST', '/feed/helius'],
  ['GET', '/state'],
  ['GET', '/status'],
  ['GET', '/events'],
  ['GET', '/'],
];

/** An error of any layer as a status and a JSON body `{code, detail}` (a refusal adds its item and field). */
function answer(error: unknown, bodyLimit: number): { status: number; body: object } {
  if (error instanceof FeedRefusal) return { status: error.status, body: error.body };
  if (error instanceof RequestError) return { status: 400, body: error.body };
  if (error instanceof InputError) return { status: 409, body: { code: 'run_failed', detail: error.message } };
  const e = error as FastifyError;
  if (e.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
    return {
      status: 413,
      body: { code: 'body_too_large', detail: `the body is over ${bodyLimit} bytes: send the feed in smaller batches` },
    };
  }
  if (e.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
    return {
      status: 415,
      body: { code: 'unsupported_media_type', detail: `send JSON (application/json) or JSONL (application/x-ndjson)` },
    };
  }
  if (typeof e.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 500) {
    return { status: e.statusCode, body: { code: 'bad_request', detail: e.message } };
  }
  return { status: 500, body: { code: 'internal_error', detail: 'the request could not be completed' } };
}

/**
 * Every error as JSON, a refusal counted by the run; an unknown route a 404 naming the routes,
 * a known path with another method a 405.
 */
export function feedErrors(app: FastifyInstance, run: LiveRun, bodyLimit: number): void {
  app.setErrorHandler((error, request, reply) => {
    if (error instanceof FeedRefusal) run.noteRefusal(error);
    const { status, body } = answer(error, bodyLimit);
    if (status >= 500) request.log.error(error);
    return reply.code(status).send(body);
  });
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0]!;
    const methods = ROUTES.filter(([, p]) => p === path).map(([m]) => m);
    if (methods.length > 0) {
      const detail = `${path} answers ${methods.join(', ')}, not ${request.method}`;
      return reply.code(405).header('allow', methods.join(', ')).send({ code: 'method_not_allowed', detail });
    }
    const routes = ROUTES.map(([m, p]) => `${m} ${p}`).join(', ');
    return reply
      .code(404)
      .send({ code: 'not_found', detail: `no route ${request.method} ${path}; the routes are ${routes}` });
  });
}
