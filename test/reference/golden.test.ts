/**
 * The reference model against the shared golden cases (../shared/golden and, for the strategy
 * extensions, ../shared/golden-strategies; compared as ../shared/golden/README.md says): exit 0
 * bodies must match under compareGolden, exit 1 cases must throw ReferenceInputError, exit 2
 * (request validation) cases must throw ReferenceRequestError with the same `code` and, for a
 * validation_error, a problem at every path the expected detail names.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compareGolden, goldenCases } from '../support/golden.js';
import { MODEL_CASES_DIR, STRATEGY_CASES_DIR, present } from '../support/paths.js';
import { ReferenceInputError, ReferenceRequestError, referenceSimulate } from './model.js';

function readJson(path: string): unknown {
  return JSON.parse(readFileSync(path, 'utf8'));
}

/** The paths a 400 body's detail names (a validation_error's list), none for a sentence. */
function detailPaths(body: unknown): string[] {
  const detail = (body as { detail?: unknown }).detail;
  return Array.isArray(detail) ? detail.map((p) => String((p as { path?: unknown }).path)) : [];
}

function referenceGoldenSuite(title: string, dir: string): void {
  const available = present(dir);
  if (!available) console.warn(`${title} skipped: ${dir} is absent on this machine`);
  const cases = goldenCases(dir);

  describe.skipIf(!available)(title, () => {
    it('finds golden cases', () => {
      expect(cases.length).toBeGreaterThan(0);
    });

    for (const name of cases) {
      const folder = join(dir, name);
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
          let refused: ReferenceRequestError | null = null;
          try {
            referenceSimulate(tape, request, options);
          } catch (e) {
            if (!(e instanceof ReferenceRequestError)) throw e;
            refused = e;
          }
          expect(refused, 'the reference must refuse the request (exit 2)').not.toBeNull();
          const want = expected.body as { code: string };
          expect(refused!.body.code).toBe(want.code);
          const got = detailPaths(refused!.body);
          for (const path of detailPaths(want)) expect(got).toContain(path);
          return;
        }
        const actual = referenceSimulate(tape, request, options);
        const problems = compareGolden(expected.body, actual);
        if (problems.length > 0) console.error(`${name}:\n  ${problems.slice(0, 50).join('\n  ')}`);
        expect(problems).toEqual([]);
      });
    }
  });
}

referenceGoldenSuite('reference model on the golden cases', MODEL_CASES_DIR);
referenceGoldenSuite('reference model on the strategy golden cases', STRATEGY_CASES_DIR);
