/**
 * `copysim simulate --report`: the readable report, with the strategy's line, its exits' tags and,
 * with `report_skipped`, the leader swaps not copied counted by reason.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { SimulatorResponse } from '../../src/index.js';
import { cli } from '../support/cli.js';
import { PROJECT_ROOT } from '../support/paths.js';

const EXAMPLE = join(PROJECT_ROOT, 'fixtures', 'example');
const TAPE = join(EXAMPLE, 'tape-sol.json');
const scratch = mkdtempSync(join(tmpdir(), 'copysim-report-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The bundled sol request with a bot's strategy. */
function strategyRequest(): string {
  const request = JSON.parse(readFileSync(join(EXAMPLE, 'request-sol.json'), 'utf8')) as object;
  const file = join(scratch, 'request-strategy.json');
  const strategy = {
    copy_delay_seconds: 5,
    trailing_stop_percent: 30,
    min_liquidity_usd: 20_000,
    report_skipped: true,
  };
  writeFileSync(file, JSON.stringify({ ...request, strategy }));
  return file;
}

describe('copysim simulate --report', () => {
  it('counts the skipped copies by reason, as skipped_copies lists them', async () => {
    const request = strategyRequest();
    const json = await cli('simulate', '--tape', TAPE, '--request', request);
    const skipped = (JSON.parse(json.out) as SimulatorResponse).skipped_copies!;
    expect(skipped.length).toBeGreaterThan(0);
    const report = await cli('simulate', '--tape', TAPE, '--request', request, '--report');
    expect(report.code).toBe(0);
    expect(report.out).toContain('strategy: copies 5 s late, liquidity of 20000 USD or more, trailing stop 30 %');
    expect(report.out).toMatch(/\n {2}trailing_stop +\d+ deals?/);
    const section = report.out.slice(report.out.indexOf('Leader swaps not copied:'));
    expect(section.split('\n')[0]).toBe(`Leader swaps not copied: ${skipped.length}, by reason`);
    const counts = Object.fromEntries(
      section
        .split('\n')
        .slice(1)
        .filter((l) => l.trim() !== '')
        .map((l) => l.trim().split(/\s+/) as [string, string])
        .map(([r, n]) => [r, Number(n)]),
    );
    const expected: Record<string, number> = {};
    for (const s of skipped) expected[s.reason] = (expected[s.reason] ?? 0) + 1;
    expect(counts).toEqual(expected);
  });

  it('has no skip section without report_skipped, and no strategy line without a strategy', async () => {
    const request = JSON.parse(readFileSync(join(EXAMPLE, 'request-sol.json'), 'utf8')) as object;
    const plain = join(scratch, 'request-plain.json');
    writeFileSync(plain, JSON.stringify({ ...request, strategy: null }));
    const report = await cli('simulate', '--tape', TAPE, '--request', plain, '--report');
    expect(report.code).toBe(0);
    expect(report.out).toMatch(/^copysim simulation of tape-sol.json\nInputs: sol · /);
    expect(report.out).not.toContain('not copied');
    expect(report.out).not.toContain('strategy:');
    expect(report.out).not.toContain("Copier's wallet");
    expect(report.out).not.toContain('Leaders by PnL');
  });

  it('refuses --pretty with --report', async () => {
    const both = await cli(
      'simulate',
      '--tape',
      TAPE,
      '--request',
      join(EXAMPLE, 'request-sol.json'),
      '--report',
      '--pretty',
    );
    expect(both.code).toBe(1);
    expect(both.err).toContain('--pretty and --report are two different outputs: choose one');
  });
});
