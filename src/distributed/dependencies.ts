/**
 * The work queue's packages, BullMQ and its Redis client ioredis, are optional peer dependencies
 * of copysim, as the HTTP service's are (src/server/service-dependencies.ts): a library user who
 * only simulates installs no Redis client. They are loaded here, on first use, so that a missing
 * one is reported as what it is, with the command that installs it, instead of a
 * module-resolution stack trace. They are loaded through `require`: BullMQ's CommonJS build
 * loads ioredis itself when given connection options.
 */
import { createRequire } from 'node:module';
import { CopysimError } from '../model/errors.js';

/** The work queue's packages and the versions copysim is built against (package.json, peerDependencies). */
export const QUEUE_PACKAGES = { bullmq: '^6.7.0', ioredis: '^5.11.1' } as const;
type QueuePackage = keyof typeof QUEUE_PACKAGES;

/** A package that the work queue (`--queue`, `copysim worker`) needs is not installed. */
export class MissingQueueDependencyError extends CopysimError {
  override name = 'MissingDependencyError';
  constructor(readonly missing: readonly QueuePackage[]) {
    const install = missing.map((name) => `${name}@${QUEUE_PACKAGES[name]}`).join(' ');
    super(
      `the work queue (--queue, copysim worker) needs ${missing.join(' and ')}, which ${missing.length === 1 ? 'is' : 'are'} not installed ` +
        `(optional dependencies of copysim, left out of a library install). Install ${missing.length === 1 ? 'it' : 'them'} ` +
        `beside copysim: npm install ${install}`,
    );
  }
}

const require = createRequire(import.meta.url);

function isMissing(name: string): boolean {
  try {
    require.resolve(name);
    return false;
  } catch {
    return true;
  }
}

/** Throws a {@link MissingQueueDependencyError} naming every queue package that is not installed. */
export function requireQueueDependencies(): void {
  const missing = (Object.keys(QUEUE_PACKAGES) as QueuePackage[]).filter(isMissing);
  if (missing.length > 0) throw new MissingQueueDependencyError(missing);
}

/** BullMQ's module (its CommonJS build). */
export function loadBullmq(): typeof import('bullmq') {
  requireQueueDependencies();
  return require('bullmq') as typeof import('bullmq');
}

/** ioredis's client class. */
export function loadIORedis(): typeof import('ioredis').Redis {
  requireQueueDependencies();
  const mod = require('ioredis') as typeof import('ioredis') & { default?: typeof import('ioredis').Redis };
  return mod.Redis ?? mod.default!;
}
