import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SimulatorResponseSchema } from '../src/index.js';
import { cli } from './support/cli.js';
import { compareGolden, goldenCases } from './support/golden.js';
import { GOLDEN_DIR, present } from './support/paths.js';

const available = present(GOLDEN_DIR);
const cases = goldenCases();

if (!available) {
  console.warn(`golden cases skipped: ${GOLDEN_DIR} is absent on this machine`);
}

describe.skipIf(!available)('golden cases of ../shared/golden (independent implementation)', () => {
  it('finds cases', () => {
    expect(cases.length).toBeGreaterThan(0);
  });

  it.each(cases)('%s', async (name) => {
    const dir = join(GOLDEN_DIR, name);
    const expected = JSON.parse(readFileSync(join(dir, 'expected.json'), 'utf8')) as { exit_code: number; body?: unknown };
    const result = await cli(
      'simulate',
      '--tape', join(dir, 'tape.json'),
      '--request', join(dir, 'request.json'),
      '--options', join(dir, 'options.json'),
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
