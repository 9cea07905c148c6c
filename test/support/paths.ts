import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The project's root folder. */
export const PROJECT_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** `../shared` beside the project: golden cases and real data, absent on some machines. */
export const SHARED = resolve(PROJECT_ROOT, '..', 'shared');
/** Cases with expected outputs (../shared/cases/README.md): model 1.2, strategies (2.0), the copier's wallet (3.0). */
export const MODEL_CASES_DIR = resolve(SHARED, 'cases', 'model');
export const STRATEGY_CASES_DIR = resolve(SHARED, 'cases', 'strategies');
export const COPIER_CASES_DIR = resolve(SHARED, 'cases', 'copier');
export const REAL_DATA_DIR = resolve(SHARED, 'real-data');

/** True when `path` exists; used to skip tests whose data is not on this machine. */
export function present(path: string): boolean {
  return existsSync(path);
}
