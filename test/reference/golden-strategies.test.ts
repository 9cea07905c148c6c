/**
 * The reference model against the shared golden cases of the strategy extensions
 * (../shared/golden-strategies, see its README.md; compared as ../shared/golden/README.md says):
 * exit 0 bodies must match under compareGolden (skipped_copies included), exit 1 cases must throw
 * ReferenceInputError, exit 2 cases must throw ReferenceRequestError with the same `code` (and,
 * for a validation_error, a problem at every path the expected detail names).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compareGolden } from '../support/golden.js';
import { present, SHARED } from '../support/paths.js';
import { ReferenceInputError, ReferenceRequestError, referenceSimulate } from './model.js';

const STRATEGY_GOLDEN_DIR = join(SHARED, 'golden-strategies');
const available = present(STRATEGY_GOLDEN_DIR);
if (!available) console.warn(`reference strategy golden test skipped: ${STRATEGY_GOLDEN_DIR} is absent on this machine`);

function readJson(path: string): unknown {
  return JSON.parse(readFileSync(path, 'utf8'));
}

/** The folders of ../shared/golden-strategies holding an `expected.json`, by name. */
const cases = available
  ? readdirSync(STRATEGY_GOLDEN_DIR)
      .filter((d) => present(join(STRATEGY_GOLDEN_DIR, d, 'expected.json')))
      .sort()
  : [];

/** The paths a 400 body's detail names (a validation_error's list), none for a sentence. */
function detailPaths(body: unknown): string[] {
  const detail = (body as { detail?: unknown }).detail;
  return Array.isArray(detail) ? detail.map((p) => String((p as { path?: unknown }).path)) : [];
}

describe.skipIf(!available)('reference model on the strategy golden cases', () => {
  it('finds strategy golden cases', () => {
    expect(cases.length).toBeGreaterThan(0);
  });

  for (const name of cases) {
    const folder = join(STRATEGY_GOLDEN_DIR, name);
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
