/**
 * The pictures of many runs in a real browser: `copysim sweep --html` (a heatmap over the two
 * settings that vary, values on hover, the figure and the axes chosen on the page), `copysim
 * latency --html` (the curve) and `copysim rank --html` (the table and the ROI scatter), made
 * by the command line in-process on the bundled sol example.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserMissing, canvasInk, launchBrowser, screenshot, watchProblems } from '../support/browser.js';
import { cli } from '../support/cli.js';
import { PROJECT_ROOT, present, REAL_DATA_DIR } from '../support/paths.js';
import { REAL_TAPES } from '../support/real-tapes.js';
import { suggestRequest } from '../../src/import.js';

const missing = browserMissing();
if (missing !== null) console.warn(`browser tests skipped: ${missing}`);

const EXAMPLE = join(PROJECT_ROOT, 'fixtures', 'example');
const TAPE = join(EXAMPLE, 'tape-sol.json');
const REQUEST = join(EXAMPLE, 'request-sol.json');
const scratch = mkdtempSync(join(tmpdir(), 'copysim-grids-'));

describe.skipIf(missing !== null)('the drawn sweep, latency curve and ranking', () => {
  let browser: Browser;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ browser, close } = await launchBrowser());
  }, 60_000);
  afterAll(async () => {
    await close?.();
    rmSync(scratch, { recursive: true, force: true });
  });

  async function open(file: string): Promise<{ page: Page; problems: string[] }> {
    const page = await browser.newPage();
    const problems = watchProblems(page);
    await page.goto(pathToFileURL(file).href, { waitUntil: 'load' });
    await page.waitForSelector('html[data-rendered-ms]');
    return { page, problems };
  }

  /** The PumpSwap capture of ../shared/real-data as a tape file, with its suggested request. */
  function pumpSwap(): { tape: string; request: object } {
    const imported = REAL_TAPES.find(([name]) => name.startsWith('PumpSwap'))![1]();
    const tape = join(scratch, 'pumpswap.json');
    writeFileSync(tape, JSON.stringify(imported.tape));
    return { tape, request: suggestRequest(imported.tape, 20)! };
  }

  const sweeps: [string, () => { tape: string; request: object }][] = [['the bundled sol example', () => ({ tape: TAPE, request: JSON.parse(readFileSync(REQUEST, 'utf8')) as object })]];
  if (present(REAL_DATA_DIR)) sweeps.push(['the real PumpSwap capture', pumpSwap]);
  else console.warn(`the PumpSwap sweep test skipped: ${REAL_DATA_DIR} is absent on this machine`);

  it.each(sweeps)('draws a sweep of %s as a heatmap over the two settings that vary, one cell a request', async (name, source) => {
    // 3 × 2 requests varying buy_percentage and max_buy_amount, and one the service refuses.
    const { tape, request: base } = source();
    const requests = [25, 50, 100].flatMap((b) => [100, 300].map((m) => ({ ...base, buy_percentage: b, max_buy_amount: m })));
    const file = join(scratch, 'sweep.jsonl');
    writeFileSync(file, [...requests, { ...base, buy_percentage: 0 }].map((r) => JSON.stringify(r)).join('\n'));
    const html = join(scratch, 'sweep.html');
    const run = await cli('sweep', '--tape', tape, '--requests', file, '--workers', '1', '--html', html);
    expect(run.code).toBe(0);
    const lines = run.out.trim().split('\n').map((l) => JSON.parse(l) as { index: number; summary?: { pnl_total: number; roi_total: number } });

    const { page, problems } = await open(html);
    const heat = await page.$$eval('[data-test="heatmap"] tbody tr', (rows) => rows.map((r) => [...r.querySelectorAll('td')].map((td) => Number(td.getAttribute('data-value')))));
    // Rows: max_buy_amount 100, 300; columns: buy_percentage 25, 50, 100 (request index 2b + m).
    expect(heat).toEqual([
      [0, 2, 4].map((i) => lines[i]!.summary!.pnl_total),
      [1, 3, 5].map((i) => lines[i]!.summary!.pnl_total),
    ]);
    const hover = await page.$eval('[data-test="heatmap"] tbody tr td', (td) => td.getAttribute('title'));
    expect(hover).toMatch(/^buy_percentage = 25, max_buy_amount = 100: pnl_total -?[\d,.]+ \(request #0\)$/);
    await page.select('[data-test="sweep-metric"]', 'roi_total');
    const roi = await page.$eval('[data-test="heatmap"] tbody tr td', (td) => Number(td.getAttribute('data-value')));
    expect(roi).toBe(lines[0]!.summary!.roi_total);
    expect(await page.$$eval('[data-test="sweep-runs"] tbody tr', (r) => r.length)).toBe(7);
    await screenshot(page, `sweep-${name.replace(/\W+/g, '-')}`);
    expect(problems).toEqual([]);
  });

  it('draws the latency curve', async () => {
    const html = join(scratch, 'latency.html');
    expect((await cli('latency', '--tape', TAPE, '--request', REQUEST, '--delays', '0,5,30,120', '--html', html)).code).toBe(0);
    const { page, problems } = await open(html);
    const ink = await canvasInk(page);
    expect(ink.length).toBe(1);
    expect(ink[0]).toBeGreaterThan(200);
    expect(await page.$$eval('[data-test="latency-table"] tbody tr', (r) => r.map((tr) => tr.children[0]!.textContent))).toEqual(['0', '5', '30', '120']);
    await screenshot(page, 'latency');
    expect(problems).toEqual([]);
  });

  it('draws the ranking: the table and the ROI scatter', async () => {
    const html = join(scratch, 'rank.html');
    const run = await cli('rank', '--tape', TAPE, '--request', REQUEST, '--top', '8', '--format', 'jsonl', '--html', html);
    expect(run.code).toBe(0);
    const wallets = run.out.trim().split('\n').map((l) => (JSON.parse(l) as { wallet: string }).wallet);
    const { page, problems } = await open(html);
    const ink = await canvasInk(page);
    expect(ink.length).toBe(1);
    expect(ink[0]).toBeGreaterThan(200);
    const shown = await page.$$eval('[data-test="rank-table"] tbody tr', (rows) => rows.map((r) => r.children[1]!.getAttribute('title')));
    expect(shown).toEqual(wallets);
    await screenshot(page, 'rank');
    expect(problems).toEqual([]);
  });
});
