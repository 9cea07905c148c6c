/**
 * The reference model against the shared golden cases (../shared/golden, see its README.md):
 * exit 0 bodies must match under compareGolden, exit 1 cases must throw ReferenceInputError,
 * exit 2 (request validation) cases are out of the reference model's scope.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { compareGolden } from '../support/golden.js';
import { ReferenceInputError, referenceSimulate } from './model.js';

const dir = fileURLToPath(new URL('../../../shared/golden', import.meta.url));
const present = existsSync(dir);
if (!present) console.warn(`reference golden test skipped: folder ${dir} is missing`);

function readJson(path: string): unknown {
  return JSON.parse(readFileSync(path, 'utf8'));
}

const cases = present
  ? readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.isDirectory() && existsSync(join(dir, e.name, 'expected.json')))
      .map((e) => e.name)
      .sort()
  : [];

describe.skipIf(!present)('reference model on the golden cases', () => {
  it('finds golden cases', () => {
    expect(cases.length).toBeGreaterThan(0);
  });

  for (const name of cases) {
    const folder = join(dir, name);
    const expected = readJson(join(folder, 'expected.json')) as { exit_code: number; body?: unknown };
    const tape = readJson(join(folder, 'tape.json'));
    const request = readJson(join(folder, 'request.json'));
    const options = existsSync(join(folder, 'options.json')) ? readJson(join(folder, 'options.json')) : undefined;

    it.skipIf(expected.exit_code === 2)(`${name} (exit ${expected.exit_code})`, () => {
      if (expected.exit_code === 1) {
        expect(() => referenceSimulate(tape, request, options)).toThrow(ReferenceInputError);
        return;
      }
      const actual = referenceSimulate(tape, request, options);
      const problems = compareGolden(expected.body, actual);
      if (problems.length > 0) console.error(`${name}:\n  ${problems.slice(0, 50).join('\n  ')}`);
      expect(problems).toEqual([]);
    });
  }
});
