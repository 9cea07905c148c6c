/**
 * The cases of ../shared/cases whose runs succeed (exit 0), by model: 1.2 (`model/`), 2.0
 * (`strategies/`) and 3.0 (`copier/`). Empty when the folder is absent.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { COPIER_CASES_DIR, MODEL_CASES_DIR, STRATEGY_CASES_DIR } from '../../support/paths.js';

export interface SharedCase {
  readonly name: string;
  readonly tape: {
    readonly network: string;
    readonly tokens?: Record<string, unknown>;
    readonly native_prices?: [number, unknown][];
    readonly swaps: { time: number }[];
  };
  readonly request: Record<string, unknown>;
  readonly options: Record<string, unknown>;
}

const read = (dir: string, file: string): unknown => JSON.parse(readFileSync(join(dir, file), 'utf8'));

/** The succeeding cases of one folder, `model` 1.2, `strategies` 2.0 or `copier` 3.0. */
export function sharedCases(model: '1.2' | '2.0' | '3.0'): SharedCase[] {
  const root = { '1.2': MODEL_CASES_DIR, '2.0': STRATEGY_CASES_DIR, '3.0': COPIER_CASES_DIR }[model];
  if (!existsSync(root)) return [];
  return readdirSync(root)
    .filter((name) => existsSync(join(root, name, 'expected.json')))
    .filter((name) => (read(join(root, name), 'expected.json') as { exit_code: number }).exit_code === 0)
    .map((name) => {
      const dir = join(root, name);
      const options = existsSync(join(dir, 'options.json'))
        ? (read(dir, 'options.json') as Record<string, unknown>)
        : {};
      return {
        name,
        tape: read(dir, 'tape.json') as SharedCase['tape'],
        request: read(dir, 'request.json') as Record<string, unknown>,
        options,
      };
    });
}
