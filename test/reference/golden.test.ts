/**
 * The reference model against the shared golden cases (../shared/golden, see its README.md):
 * exit 0 bodies must match under compareGolden, exit 1 cases must throw ReferenceInputError,
 * exit 2 (request validation) cases must throw ReferenceRequestError with the same `code`.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compareGolden, goldenCases } from '../support/golden.js';
import { GOLDEN_DIR, present } from '../support/paths.js';
import { ReferenceInputError, ReferenceRequestError, referenceSimulate } from './model.js';

const available = present(GOLDEN_DIR);
if (!available) console.warn(`reference golden test skipped: ${GOLDEN_DIR} is absent on this machine`);

function readJson(path: string): unknown {
  return JSON.parse(readFileSync(path, 'utf8'));
}

const cases = goldenCases();

describe.skipIf(!available)('reference model on the golden cases', () => {
  it('finds golden cases', () => {
    expect(cases.length).toBeGreaterThan(0);
  });

  for (const name of cases) {
    const folder = join(GOLDEN_DIR, name);
    const expected = readJson(join(folder, 'expected.json')) as { exit_code: number; body?: unknown };
    const tape = readJson(join(folder, 'tape.json'));
    const request = readJson(join(folder, 'request.json'));
    const options = existsSync(join(folder, 'options.json')) ? readJson(join(folder, 'options.json')) : undefined;

    it(`${name} (exit ${expected.exit_code})`, () => {
      if (expected.exit_code === 1) {
        expect(() => referenceSimulate(tape, request, options)).toThrow(ReferenceInputError);
        return;
      }
      if (expected.exit_code === 2) {
        // README: for exit 2, the same `code`
        const code = (expected.body as { code: string }).code;
        expect(() => referenceSimulate(tape, request, options)).toThrow(ReferenceRequestError);
        try {
          referenceSimulate(tape, request, options);
        } catch (e) {
          expect((e as ReferenceRequestError).body.code).toBe(code);
        }
        return;
      }
      const actual = referenceSimulate(tape, request, options);
      const problems = compareGolden(expected.body, actual);
      if (problems.length > 0) console.error(`${name}:\n  ${problems.slice(0, 50).join('\n  ')}`);
      expect(problems).toEqual([]);
    });
  }
});
