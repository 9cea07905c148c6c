/**
 * The work queue's packages, BullMQ and its Redis client ioredis, are optional peer dependencies
 * of copysim, as the HTTP service's are (see `src/optional-packages.ts`): a library user who only
 * simulates installs no Redis client. BullMQ's CommonJS build loads ioredis itself when given
 * connection options.
 */
import { loadPackage, requirePackages } from '../optional-packages.js';

/** The work queue's packages and the versions copysim is built against (package.json, peerDependencies). */
export const QUEUE_PACKAGES = { bullmq: '^6.7.0', ioredis: '^5.11.1' } as const;

const FEATURE = 'the work queue (the `queue` option, copysim worker)';

/** Throws a `MissingDependencyError` naming every queue package that is not installed. */
export function requireQueueDependencies(): void {
  requirePackages(FEATURE, QUEUE_PACKAGES);
}

/** BullMQ's module (its CommonJS build). */
export function loadBullmq(): typeof import('bullmq') {
  requireQueueDependencies();
  return loadPackage<typeof import('bullmq')>(FEATURE, QUEUE_PACKAGES, 'bullmq');
}

/** ioredis's client class. */
export function loadIORedis(): typeof import('ioredis').Redis {
  requireQueueDependencies();
  const mod = loadPackage<typeof import('ioredis') & { default?: typeof import('ioredis').Redis }>(
    FEATURE,
    QUEUE_PACKAGES,
    'ioredis',
  );
  return mod.Redis ?? mod.default!;
}
