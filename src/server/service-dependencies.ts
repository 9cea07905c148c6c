/**
 * The HTTP service's own dependencies, Fastify and better-sqlite3, are optional peer
 * dependencies of copysim: a library user who only simulates installs neither (no web framework,
 * no native SQLite build). They are loaded here, on first use, so that a missing one is reported
 * as what it is, with the command that installs it, instead of a module-resolution stack trace.
 */
import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';
import { CopysimError } from '../model/errors.js';

/** The service's packages and the versions copysim is built against (package.json, peerDependencies). */
export const SERVICE_PACKAGES = { fastify: '^5.12.8', 'better-sqlite3': '^12.11.1' } as const;
type ServicePackage = keyof typeof SERVICE_PACKAGES;

/** A package that the HTTP service needs is not installed. */
export class MissingDependencyError extends CopysimError {
  override name = 'MissingDependencyError';
  constructor(readonly missing: readonly ServicePackage[]) {
    const install = missing.map((name) => `${name}@${SERVICE_PACKAGES[name]}`).join(' ');
    super(
      `the HTTP service needs ${missing.join(' and ')}, which ${missing.length === 1 ? 'is' : 'are'} not installed ` +
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

/** Throws a {@link MissingDependencyError} naming every service package that is not installed. */
export function requireServiceDependencies(): void {
  const missing = (Object.keys(SERVICE_PACKAGES) as ServicePackage[]).filter(isMissing);
  if (missing.length > 0) throw new MissingDependencyError(missing);
}

function load<T>(name: ServicePackage): T {
  if (isMissing(name)) throw new MissingDependencyError([name]);
  return require(name) as T;
}

/** Fastify's factory. */
export function loadFastify(): typeof import('fastify').fastify {
  return load<typeof import('fastify')>('fastify').fastify;
}

/** better-sqlite3's `Database` class. */
export function loadSqlite(): typeof BetterSqlite3 {
  return load<typeof BetterSqlite3>('better-sqlite3');
}
