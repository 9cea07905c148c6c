/**
 * The reference model against the shared cases of models 1.2, 2.0 and 3.0 (../shared/cases/
 * {model,strategies,copier}, compared as ../shared/cases/README.md says): the same exit code; for
 * exit 2 the same `code` and a problem at every path the expected detail names; for exit 0 the
 * golden comparison (keys, list lengths, numbers within 1e-9, integers stay integers, the deal
 * charts' values within 1) and the member order the models fix.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compareGolden, compareMemberOrder, goldenCases } from '../support/golden.js';
import { SHARED, present } from '../support/paths.js';
import { ReferenceInputError, ReferenceRequestError, referenceSimulate } from './model.js';

const CASES_DIR = resolve(SHARED, 'cases');

function readJson(path: string): unknown {
  return JSON.parse(readFileSync(path, 'utf8'));
}

/** The paths a 400 body's detail names (a validation_error's list), none for a sentence. */
function detailPaths(body: unknown): string[] {
  const detail = (body as { detail?: unknown }).detail;
  return Array.isArray(detail) ? detail.map((p) => String((p as { path?: unknown }).path)) : [];
}

/** The 400 body the reference gives, or null when it answers. */
function refusal(tape: unknown, request: unknown, options: unknown): ReferenceRequestError['body'] | null {
  try {
    referenceSimulate(tape, request, options);
    return null;
  } catch (e) {
    if (e instanceof ReferenceRequestError) return e.body;
    throw e;
  }
}

function casesSuite(folder: string): void {
  const dir = join(CASES_DIR, folder);
  const available = present(dir);
  if (!available) console.warn(`reference on the cases of ${folder}/ skipped: ${dir} is absent on this machine`);
  const cases = goldenCases(dir);

  describe.skipIf(!available)(`reference model on the cases of ${folder}/`, () => {
    it('finds cases', () => {
      expect(cases.length).toBeGreaterThan(0);
    });

    for (const name of cases) {
      const at = (file: string): string => join(dir, name, file);
      const expected = readJson(at('expected.json')) as { exit_code: number; body?: unknown };
      const tape = readJson(at('tape.json'));
      const request = readJson(at('request.json'));
      const options = existsSync(at('options.json')) ? readJson(at('options.json')) : undefined;

      it(`${name} (exit ${expected.exit_code})`, () => {
        if (expected.exit_code === 1) {
          expect(() => referenceSimulate(tape, request, options)).toThrow(ReferenceInputError);
          return;
        }
        if (expected.exit_code === 2) {
          const body = refusal(tape, request, options);
          expect(body, 'the reference must refuse the request (exit 2)').not.toBeNull();
          expect(body!.code).toBe((expected.body as { code: string }).code);
          const got = detailPaths(body);
          for (const path of detailPaths(expected.body)) expect(got).toContain(path);
          return;
        }
        const actual = referenceSimulate(tape, request, options);
        const problems = [...compareGolden(expected.body, actual), ...compareMemberOrder(expected.body, actual)];
        if (problems.length > 0) console.error(`${folder}/${name}:\n  ${problems.slice(0, 50).join('\n  ')}`);
        expect(problems).toEqual([]);
      });
    }
  });
}

if (!present(CASES_DIR)) console.warn(`reference on the shared cases skipped: ${CASES_DIR} is absent on this machine`);
for (const folder of ['model', 'strategies', 'copier']) casesSuite(folder);
