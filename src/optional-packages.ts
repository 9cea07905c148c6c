/**
 * Packages that copysim lists as optional peer dependencies (the HTTP service's, the work
 * queue's): a library user who only simulates installs none of them. They are loaded on first
 * use, through `require`, so that a missing one is reported as what it is, with the command that
 * installs it, instead of a module-resolution stack trace.
 */
import { createRequire } from 'node:module';
import { CopysimError } from './model/errors.js';

/** Package names and the version ranges copysim is built against (package.json, peerDependencies). */
export type PackageRanges = Readonly<Record<string, string>>;

/** A package that a part of copysim needs is not installed. */
export class MissingDependencyError extends CopysimError {
  override name = 'MissingDependencyError';
  constructor(
    /** What needs them, as the message names it ("the HTTP service"). */
    readonly feature: string,
    readonly missing: readonly string[],
    ranges: PackageRanges,
  ) {
    const install = missing.map((name) => `${name}@${ranges[name]}`).join(' ');
    super(
      `${feature} needs ${listed(missing)}, which ${missing.length === 1 ? 'is' : 'are'} not installed ` +
        `(optional dependencies of copysim, left out of a library install).` +
        ` Install ${missing.length === 1 ? 'it' : 'them'} ` +
        `beside copysim: npm install ${install}`,
    );
  }
}

/** `a`, `a and b`, `a, b and c`. */
function listed(names: readonly string[]): string {
  return names.length <= 1 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
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

/** Throws a {@link MissingDependencyError} naming every package of `ranges` that is not installed. */
export function requirePackages(feature: string, ranges: PackageRanges): void {
  const missing = Object.keys(ranges).filter(isMissing);
  if (missing.length > 0) throw new MissingDependencyError(feature, missing, ranges);
}

/** Loads package `name` of `ranges`, or throws a {@link MissingDependencyError} naming it. */
export function loadPackage<T>(feature: string, ranges: PackageRanges, name: string): T {
  if (isMissing(name)) throw new MissingDependencyError(feature, [name], ranges);
  return require(name) as T;
}
