/**
 * The HTTP service's own dependencies, Fastify (with @fastify/static for its web page) and
 * better-sqlite3, are optional peer
 * dependencies of copysim (see `src/optional-packages.ts`): a library user who only simulates
 * installs neither (no web framework, no native SQLite build). So are the clients of the servers
 * that several instances share: `postgres` for the PostgreSQL ledger, ioredis for rate limits
 * shared through Redis; only a service that uses one needs it.
 */
import type BetterSqlite3 from 'better-sqlite3';
import type Postgres from 'postgres';
import { loadPackage, requirePackages } from '../optional-packages.js';

export { MissingDependencyError } from '../optional-packages.js';

/** The service's packages and the versions copysim is built against (package.json, peerDependencies). */
export const SERVICE_PACKAGES = {
  fastify: '^5.12.8',
  '@fastify/static': '^10.1.11',
  'better-sqlite3': '^12.11.1',
} as const;

/** The PostgreSQL ledger's client (package.json, peerDependencies). */
export const POSTGRES_PACKAGES = { postgres: '^3.4.9' } as const;

/** The Redis client of shared rate limits; the work queue's too (src/distributed/dependencies.ts). */
const REDIS_PACKAGES = { ioredis: '^5.11.1' } as const;

const FEATURE = 'the HTTP service';

/** Throws a `MissingDependencyError` naming every service package that is not installed. */
export function requireServiceDependencies(): void {
  requirePackages(FEATURE, SERVICE_PACKAGES);
}

/** Fastify's factory. */
export function loadFastify(): typeof import('fastify').fastify {
  return loadPackage<typeof import('fastify')>(FEATURE, SERVICE_PACKAGES, 'fastify').fastify;
}

/** better-sqlite3's `Database` class. */
export function loadSqlite(): typeof BetterSqlite3 {
  return loadPackage<typeof BetterSqlite3>(FEATURE, SERVICE_PACKAGES, 'better-sqlite3');
}

/** @fastify/static's plugin (the web page's files). */
export function loadFastifyStatic(): typeof import('@fastify/static').default {
  return loadPackage<typeof import('@fastify/static')>(FEATURE, SERVICE_PACKAGES, '@fastify/static').default;
}

/** The `postgres` client's factory. */
export function loadPostgres(): typeof Postgres {
  return loadPackage<typeof Postgres>('the PostgreSQL ledger (--db postgres://…)', POSTGRES_PACKAGES, 'postgres');
}

/** ioredis's client class. */
export function loadRedis(): typeof import('ioredis').Redis {
  const mod = loadPackage<typeof import('ioredis') & { default?: typeof import('ioredis').Redis }>(
    'rate limits shared through Redis (--redis)',
    REDIS_PACKAGES,
    'ioredis',
  );
  return mod.Redis ?? mod.default!;
}
