import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { insufficientCredits, keyDisabled, type CreditsSpent } from '../credits.js';
import { HttpError } from '../http-error.js';
import type { ChargeOutcome, Claim, Hold, HoldOutcome, KeyStatus, Ledger } from '../ledger/ledger.js';
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

/** The key of a paid request, and the hold taken with its lookup, until {@link PaidAccess.paid} takes it. */
export interface PaidKey {
  readonly id: number;
  hold: HoldOutcome | undefined;
}

/** The API key and the credits of a paid route, in the order its handler calls them. */
export interface PaidAccess {
  /**
   * The key of a request: 401 when missing or unknown, 403 when disabled, 429 when it sends
   * faster than its rate limit. Sets the `RateLimit` headers of a limited key on `reply`. A
   * request without `Idempotency-Key` holds the operation's credits in the same round trip to the
   * ledger (let go when the request ends without its charge, as after a 400).
   */
  authenticate(request: FastifyRequest, reply: FastifyReply, spec: OperationSpec): Promise<PaidKey>;
  /**
   * Claims the request's `Idempotency-Key` if it has one (a stored answer is returned as it
   * was), holds the operation's credits (when it holds them: `spec.holdsCredits`), runs `work`,
   * and charges on success. Undefined when the client went away meanwhile: nothing is charged
   * for an answer nobody receives.
   */
  paid(
    key: PaidKey,
    spec: OperationSpec,
    request: FastifyRequest,
    work: () => Promise<PaidResult>,
  ): Promise<PaidAnswer | undefined>;
}

/** The header that marks a replayed answer (IETF httpapi draft "The Idempotency-Key HTTP Header Field"). */
export const REPLAYED_HEADER = 'idempotent-replayed';

const DECORATOR = 'copysimPaidAccess';

/** Where a request keeps the {@link PaidKey} whose hold is still to be charged or let go. */
const PENDING = Symbol('copysim paid key');

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
        {
          code: 'idempotency_key_in_use',
          detail: 'another request took over this Idempotency-Key; retry to get its answer',
        },
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

/** Lets go of the hold of a request that ended without charging it (a 400, a 429, a client gone). */
async function releasePending(ledger: Ledger, request: FastifyRequest): Promise<void> {
  const pending = (request as unknown as Record<symbol, PaidKey | undefined>)[PENDING];
  if (pending === undefined) return;
  (request as unknown as Record<symbol, PaidKey | undefined>)[PENDING] = undefined;
  const hold = pending.hold;
  pending.hold = undefined;
  if (hold?.ok === true) await ledger.release(hold.hold);
}

function paidAccess({ ledger, rateLimiter, defaultRate = UNLIMITED }: PaidAccessOptions): PaidAccess {
  return {
    async authenticate(request, reply, spec) {
      const header = request.headers['x-api-key'];
      const key = Array.isArray(header) ? header[0] : header;
      if (key === undefined || key === '') {
        throw new HttpError(401, { code: 'unauthorized', detail: 'missing X-API-Key header' });
      }
      // With an Idempotency-Key the claim comes first (a replay needs no credits): no hold yet.
      let record: KeyStatus | undefined;
      let hold: HoldOutcome | undefined;
      if (spec.holdsCredits && request.headers['idempotency-key'] === undefined) {
        ({ record, hold } = await ledger.authenticateAndHold(key, spec.cost));
      } else {
        record = await ledger.recentKey(key);
      }
      if (record === undefined) throw new HttpError(401, { code: 'unauthorized', detail: 'unknown API key' });
      const paidKey: PaidKey = { id: record.id, hold };
      (request as unknown as Record<symbol, PaidKey | undefined>)[PENDING] = paidKey;
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
      return paidKey;
    },

    async paid(key, spec, request, work) {
      const idempotencyKey = idempotencyKeyOf(request);
      let claim: Claim | undefined;
      if (idempotencyKey !== undefined) {
        const claimed = await ledger.claim(key.id, idempotencyKey, requestFingerprint(request));
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
              {
                code: 'idempotency_key_in_use',
                detail: 'a request with this Idempotency-Key is still running; retry later',
              },
              { 'retry-after': '1' },
            );
          case 'claimed':
            claim = claimed.claim;
        }
      }
      let charged = false;
      // Runs the work and charges it (under `hold`, if any): undefined when the client is gone.
      const runAndCharge = async (hold: Hold | undefined): Promise<PaidAnswer | undefined> => {
        const result = await work();
        if (request.raw.socket?.destroyed === true) return undefined;
        const answer = claim === undefined ? undefined : { claim, body: result.json, headers: result.headers };
        const outcome =
          hold === undefined
            ? await ledger.chargeUnheld(key.id, spec.cost, spec.id, answer)
            : await ledger.charge(hold, spec.id, answer);
        if (!outcome.ok) throw refusal(outcome, spec.cost);
        charged = true;
        return { result, credits: { spent: spec.cost, remaining: outcome.remaining }, replayed: false };
      };
      try {
        if (!spec.holdsCredits) return await runAndCharge(undefined);
        const held = key.hold ?? (await ledger.hold(key.id, spec.cost));
        key.hold = undefined;
        if (!held.ok) throw refusal(held, spec.cost);
        try {
          return await runAndCharge(held.hold);
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
 * Keys, rate limits and credits for the paid routes, one ledger for the whole service. A key's
 * status comes from the ledger ({@link Ledger.recentKey}: with PostgreSQL up to a second old, so
 * a disable or a new rate counts within that time); its credits are held while an operation runs
 * and charged only when it succeeds, by the database, which refuses a disabled key at once. The routes get it by
 * {@link paidAccessOf}.
 */
export const paidAccessPlugin = sharedPlugin<PaidAccessOptions>('copysim-paid-access', async (app, options) => {
  app.decorate(DECORATOR, paidAccess(options));
  app.addHook('onResponse', async (request) => releasePending(options.ledger, request));
  app.addHook('onRequestAbort', async (request) => releasePending(options.ledger, request));
});

/** The {@link PaidAccess} of the service; fails at start when {@link paidAccessPlugin} is not registered first. */
export function paidAccessOf(app: FastifyInstance): PaidAccess {
  return app.getDecorator<PaidAccess>(DECORATOR);
}
