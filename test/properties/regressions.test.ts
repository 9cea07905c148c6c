/**
 * Replays every saved counterexample of test/support/regressions/ (written by a failing
 * property, see run.ts) as an ordinary test: every identity of checks.ts must hold on it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkAll } from './checks.js';
import { REGRESSIONS_DIR, runScenario, type RegressionFixture } from './run.js';

const files = readdirSync(REGRESSIONS_DIR)
  .filter((f) => f.endsWith('.json'))
  .sort();

describe('saved counterexamples', () => {
  it('are there to replay', () => {
    expect(files.length).toBeGreaterThan(0);
  });

  it.each(files)('%s', (file) => {
    const fixture = JSON.parse(readFileSync(join(REGRESSIONS_DIR, file), 'utf8')) as RegressionFixture;
    expect(checkAll(runScenario(fixture.scenario))).toEqual([]);
  });
});
