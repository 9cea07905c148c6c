import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SimulatorResponseSchema } from '../../src/index.js';
import { cli } from '../support/cli.js';
import { compareGolden, goldenCases } from '../support/golden.js';
import { COPIER_CASES_DIR, MODEL_CASES_DIR, STRATEGY_CASES_DIR, present } from '../support/paths.js';

/** The engine's command line against the golden cases of `dir`, as ../shared/cases/README.md compares them. */
function goldenSuite(title: string, dir: string): void {
  const available = present(dir);
  const cases = goldenCases(dir);
  if (!available) console.warn(`${title} skipped: ${dir} is absent on this machine`);

  describe.skipIf(!available)(title, () => {
    it('finds cases', () => {
      expect(cases.length).toBeGreaterThan(0);
    });

    it.each(cases)('%s', async (name) => {
      const folder = join(dir, name);
      const expected = JSON.parse(readFileSync(join(folder, 'expected.json'), 'utf8')) as {
        exit_code: number;
        body?: unknown;
      };
      const result = await cli(
        'simulate',
        '--tape',
        join(folder, 'tape.json'),
        '--request',
        join(folder, 'request.json'),
        '--options',
        join(folder, 'options.json'),
      );
      expect(result.code, result.err).toBe(expected.exit_code);
      if (expected.exit_code === 0) {
        const body = JSON.parse(result.out);
        expect(compareGolden(expected.body, body)).toEqual([]);
        expect(SimulatorResponseSchema.safeParse(body).success).toBe(true);
      } else if (expected.exit_code === 2) {
        expect(JSON.parse(result.out).code).toBe((expected.body as { code: string }).code);
      } else {
        expect(result.err).toMatch(/\S/);
        expect(result.out).toBe('');
      }
    });
  });
}

goldenSuite('cases of model 1.2, ../shared/cases/model (independent implementation)', MODEL_CASES_DIR);
goldenSuite('cases of the strategy extensions, ../shared/cases/strategies', STRATEGY_CASES_DIR);
goldenSuite("cases of the copier's wallet, ../shared/cases/copier", COPIER_CASES_DIR);
