/**
 * Where a worker thread's script is: every host and reader that starts a thread (the pool, a
 * rank's helpers, the Parquet decoding thread) finds its compiled file here.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * A worker script of `src/`, compiled: from `dist/` the file itself; when this module runs from
 * its TypeScript source (tests), the same path under `dist/`.
 *
 * @example
 * builtScript('server/simulation/worker.js'); // file:///…/dist/src/server/simulation/worker.js
 */
export function builtScript(pathInSrc: string): URL {
  const here = import.meta.url;
  return here.endsWith('.ts') ? new URL(`../dist/src/${pathInSrc}`, here) : new URL(`./${pathInSrc}`, here);
}

/** {@link builtScript}, or null when it has not been built (running from the TypeScript source). */
export function builtScriptIfAny(pathInSrc: string): URL | null {
  const url = builtScript(pathInSrc);
  return existsSync(fileURLToPath(url)) ? url : null;
}
