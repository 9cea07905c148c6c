import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { insufficientCredits, keyDisabled, type CreditsSpent } from '../credits.js';
import { HttpError } from '../http-error.js';
import type { ChargeOutcome, Claim, HoldOutcome, Ledger } from '../ledger/ledger.js';
import type { OperationSpec } from '../operations.js';
import { rateLimitHeaders, type RateLimiter } from '../rate-limit/limiter.js';
import { formatRate, isUnlimited, UNLIMITED, type RateLimit } from '../rate-limit/rate.js';
import { sharedPlugin } from './shared-plugin.js';

/** What a paid operation computed: its own JSON, and the headers that go with it. */
export interface PaidResult {
  /** The simulator's body, or the envelope's `result`. */
  readonly json: string;
  readonly headers: Readonly<Record<string, string>>;
}

/** A paid operation's answer: its result, its credits, and whether it is a stored answer replayed. */
export interface PaidAnswer {
  readonly result: PaidResult;
  readonly credits: CreditsSpent;
  /** True when an `Idempotency-Key` retry gets the first request's answer (nothing charged again). */
  readonly replayed: boolean;
}

/** The API key and the credits of a paid route, in the order its handler calls them. */
export interface PaidAccess {
  /**
   * The key of a request: 401 when missing or unknown, 403 when disabled, 429 when it sends
   * faster than its rate limit. Sets the `RateLimit` headers of a limited key on `reply`.
   */
  authenticate(request: FastifyRequest, reply: FastifyReply): Promise<number>;
  /**
   * Claims the request's `Idempotency-Key` if it has one (a stored answer is returned as it
   * was), holds the operation's credits, runs `work`, and charges on success. Undefined when the
   * client went away meanwhile: nothing is charged for an answer nobody receives.
   */
  paid(keyId: number, spec: OperationSpec, request: FastifyRequest, work: () => Promise<PaidResult>): Promise<PaidAnswer | undefined>;
}

/** The header that marks a replayed answer (IETF httpapi draft "The Idempotency-Key HTTP Header Field"). */
export const REPLAYED_HEADER = 'idempotent-replayed';

const DECORATOR = 'copysimPaidAccess';

/** Longest `Idempotency-Key`: a UUID is 36 characters. */
const MAX_IDEMPOTENCY_KEY = 255;

/**
 * The request's `Idempotency-Key`, if it sent one: a structured-field string (`"…"`, as the
 * draft writes it) or, as many clients send it, the bare value. A 400 when it is empty, too long
 * or not printable ASCII.
 */
export function idempotencyKeyOf(request: FastifyRequest): string | undefined {
  const header = request.headers['idempotency-key'];
  if (header === undefined) return undefined;
  let key = (Array.isArray(header) ? header.join(', ') : header).trim();
  if (/^"(?:[^"\\]|\\.)*"$/.test(key)) key = key.slice(1, -1).replace(/\\(.)/g, '$1');
  if (!new RegExp(`^[\\x20-\\x7e]{1,${MAX_IDEMPOTENCY_KEY}}$`).test(key)) {
    throw new HttpError(400, {
      code: 'invalid_idempotency_key',
      detail: `Idempotency-Key must be 1 to ${MAX_IDEMPOTENCY_KEY} printable ASCII characters, such as a UUID`,
    });
  }
  return key;
}

/** The hash an `Idempotency-Key` is bound to: the method, the URL (path and query) and the body. */
export function requestFingerprint(request: FastifyRequest): string {
  const body = request.body === undefined ? '' : JSON.stringify(request.body);
  return createHash('sha256').update(`${request.method} ${request.url}\n${body}`, 'utf8').digest('hex');
}

function refusal(outcome: Exclude<HoldOutcome | ChargeOutcome, { ok: true }>, cost: number): HttpError {
  switch (outcome.code) {
    case 'insufficient_credits':
      return insufficientCredits(cost, outcome.remaining);
    case 'key_disabled':
      return keyDisabled();
    case 'unknown_key':
      return new HttpError(401, { code: 'unauthorized', detail: 'unknown API key' });
    case 'claim_lost':
      return new HttpError(
        409,
        { code: 'idempotency_key_in_use', detail: 'another request took over this Idempotency-Key; retry to get its answer' },
        { 'retry-after': '1' },
      );
  }
}

export interface PaidAccessOptions {
  readonly ledger: Ledger;
  /** Counts the requests of keys that have a rate limit; none: no key is limited. */
  readonly rateLimiter?: RateLimiter;
  /** The limit of keys that have none of their own; default none. */
  readonly defaultRate?: RateLimit;
}

function paidAccess({ ledger, rateLimiter, defaultRate = UNLIMITED }: PaidAccessOptions): PaidAccess {
  return {
    async authenticate(request, reply) {
      const header = request.headers['x-api-key'];
      const key = Array.isArray(header) ? header[0] : header;
      if (key === undefined || key === '') {
        throw new HttpError(401, { code: 'unauthorized', detail: 'missing X-API-Key header' });
      }
      const record = await ledger.authenticate(key);
      if (record === undefined) throw new HttpError(401, { code: 'unauthorized', detail: 'unknown API key' });
      if (record.disabled) throw keyDisabled();
      const rate = record.rate ?? defaultRate;
      if (rateLimiter !== undefined && !isUnlimited(rate)) {
        const decision = await rateLimiter.take(record.id, rate);
        const headers = rateLimitHeaders(decision);
        if (!decision.allowed) {
          throw new HttpError(
            429,
            {
              code: 'rate_limited',
              detail: `this key may send ${formatRate(rate)}; retry in ${decision.retryAfter} s (nothing was charged)`,
            },
            headers,
          );
        }
        if (decision.windows.length > 0) reply.headers(headers);
      }
      return record.id;
    },

    async paid(keyId, spec, request, work) {
      const idempotencyKey = idempotencyKeyOf(request);
      let claim: Claim | undefined;
      if (idempotencyKey !== undefined) {
        const claimed = await ledger.claim(keyId, idempotencyKey, requestFingerprint(request));
        switch (claimed.state) {
          case 'replay': {
            const { body, headers, spent, remaining } = claimed.answer;
            return { result: { json: body, headers }, credits: { spent, remaining }, replayed: true };
          }
          case 'mismatch':
            throw new HttpError(422, {
              code: 'idempotency_key_reused',
              detail: 'this Idempotency-Key was sent with another request (method, path, query or body): use a new key',
            });
          case 'running':
            throw new HttpError(
              409,
              { code: 'idempotency_key_in_use', detail: 'a request with this Idempotency-Key is still running; retry later' },
              { 'retry-after': '1' },
            );
          case 'claimed':
            claim = claimed.claim;
        }
      }
      let charged = false;
      try {
        const held = await ledger.hold(keyId, spec.cost);
        if (!held.ok) throw refusal(held, spec.cost);
        try {
          const result = await work();
          if (request.raw.socket?.destroyed === true) return undefined;
          const answer = claim === undefined ? undefined : { claim, body: result.json, headers: result.headers };
          const outcome = await ledger.charge(held.hold, spec.id, answer);
          if (!outcome.ok) throw refusal(outcome, spec.cost);
          charged = true;
          return { result, credits: { spent: spec.cost, remaining: outcome.remaining }, replayed: false };
        } finally {
          await ledger.release(held.hold);
        }
      } finally {
        if (claim !== undefined && !charged) await ledger.abandon(claim);
      }
    },
  };
}

/**
 * Keys, rate limits and credits for the paid routes, one ledger for the whole service: a key is
 * read from the ledger on every request (so a top-up or a disable counts at once), and credits
 * are held while an operation runs and charged only when it succeeds. The routes get it by
 * {@link paidAccessOf}.
 */
export const paidAccessPlugin = sharedPlugin<PaidAccessOptions>('copysim-paid-access', async (app, options) => {
  app.decorate(DECORATOR, paidAccess(options));
});

/** The {@link PaidAccess} of the service; fails at start when {@link paidAccessPlugin} is not registered first. */
export function paidAccessOf(app: FastifyInstance): PaidAccess {
  return app.getDecorator<PaidAccess>(DECORATOR);
}
