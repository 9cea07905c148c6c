import type { FastifyInstance, FastifyRequest } from 'fastify';
import { CreditMeter, keyDisabled, type CreditsSpent } from '../credits.js';
import { HttpError } from '../http-error.js';
import type { KeyStore } from '../keys/key-store.js';
import type { OperationSpec } from '../operations.js';
import { sharedPlugin } from './shared-plugin.js';

/** The API key and the credits of a paid route, in the order its handler calls them. */
export interface PaidAccess {
  /** The key of a request: 401 when missing or unknown, 403 when disabled. */
  authenticate(request: FastifyRequest): number;
  /**
   * Holds the operation's credits, runs `work`, and charges on success. Undefined when the
   * client went away meanwhile: nothing is charged for an answer nobody receives.
   */
  paid<T>(
    keyId: number,
    spec: OperationSpec,
    request: FastifyRequest,
    work: () => Promise<T>,
  ): Promise<{ output: T; credits: CreditsSpent } | undefined>;
}

const DECORATOR = 'copysimPaidAccess';

function paidAccess(store: KeyStore): PaidAccess {
  const meter = new CreditMeter(store);
  return {
    authenticate(request) {
      const header = request.headers['x-api-key'];
      const key = Array.isArray(header) ? header[0] : header;
      if (key === undefined || key === '') {
        throw new HttpError(401, { code: 'unauthorized', detail: 'missing X-API-Key header' });
      }
      const record = store.findByKey(key);
      if (record === undefined) throw new HttpError(401, { code: 'unauthorized', detail: 'unknown API key' });
      if (record.disabled) throw keyDisabled();
      return record.id;
    },
    async paid(keyId, spec, request, work) {
      const hold = meter.hold(keyId, spec.cost);
      try {
        const output = await work();
        if (request.raw.socket?.destroyed === true) return undefined;
        return { output, credits: await hold.charge(spec.id) };
      } finally {
        hold.release();
      }
    },
  };
}

export interface PaidAccessOptions {
  readonly store: KeyStore;
}

/**
 * Keys and credits for the paid routes, one credit meter for the whole service: a key is read
 * from the store on every request (so a top-up or a disable counts at once), and credits are held
 * while an operation runs and charged only when it succeeds. The routes get it by
 * {@link paidAccessOf}.
 */
export const paidAccessPlugin = sharedPlugin<PaidAccessOptions>('copysim-paid-access', async (app, { store }) => {
  app.decorate(DECORATOR, paidAccess(store));
});

/** The {@link PaidAccess} of the service; fails at start when {@link paidAccessPlugin} is not registered first. */
export function paidAccessOf(app: FastifyInstance): PaidAccess {
  return app.getDecorator<PaidAccess>(DECORATOR);
}
