import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The project's root folder. */
export const PROJECT_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** `../shared` beside the project: golden cases and real data, absent on some machines. */
export const SHARED = resolve(PROJECT_ROOT, '..', 'shared');
export const GOLDEN_DIR = resolve(SHARED, 'golden');
/** The golden cases of the strategy extensions (model 2.0). */
export const GOLDEN_STRATEGIES_DIR = resolve(SHARED, 'golden-strategies');
export const REAL_DATA_DIR = resolve(SHARED, 'real-data');

/** True when `path` exists; used to skip tests whose data is not on this machine. */
export function present(path: string): boolean {
  return existsSync(path);
}
