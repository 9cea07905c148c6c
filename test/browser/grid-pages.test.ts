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

  const sweeps: [string, () => { tape: string; request: object }][] = [
    ['the bundled sol example', () => ({ tape: TAPE, request: JSON.parse(readFileSync(REQUEST, 'utf8')) as object })],
  ];
  if (present(REAL_DATA_DIR)) sweeps.push(['the real PumpSwap capture', pumpSwap]);
  else console.warn(`the PumpSwap sweep test skipped: ${REAL_DATA_DIR} is absent on this machine`);

  it.each(sweeps)(
    'draws a sweep of %s as a heatmap over the two settings that vary, one cell a request',
    async (name, source) => {
      // 3 × 2 requests varying buy_percentage and max_buy_amount, and one the service refuses.
      const { tape, request: base } = source();
      const requests = [25, 50, 100].flatMap((b) =>
        [100, 300].map((m) => ({ ...base, buy_percentage: b, max_buy_amount: m })),
      );
      const file = join(scratch, 'sweep.jsonl');
      writeFileSync(file, [...requests, { ...base, buy_percentage: 0 }].map((r) => JSON.stringify(r)).join('\n'));
      const html = join(scratch, 'sweep.html');
      const run = await cli('sweep', '--tape', tape, '--requests', file, '--workers', '1', '--html', html);
      expect(run.code).toBe(0);
      const lines = run.out
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { index: number; summary?: { pnl_total: number; roi_total: number } });

      const { page, problems } = await open(html);
      const heat = await page.$$eval('[data-test="heatmap"] tbody tr', (rows) =>
        rows.map((r) => [...r.querySelectorAll('td')].map((td) => Number(td.getAttribute('data-value')))),
      );
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
    },
  );

  it("draws a tolerance × delay sweep with the copier's figures, close values in different colours", async () => {
    const base = JSON.parse(readFileSync(REQUEST, 'utf8')) as object;
    const requests = [1, 3, 10].flatMap((tolerance) =>
      [0, 5, 30].map((delay) => ({
        ...base,
        strategy: { slippage_tolerance_percent: tolerance, copy_delay_seconds: delay, failed_transaction_percent: 5 },
      })),
    );
    const file = join(scratch, 'tolerance.jsonl');
    writeFileSync(file, requests.map((r) => JSON.stringify(r)).join('\n'));
    const html = join(scratch, 'tolerance.html');
    const run = await cli('sweep', '--tape', TAPE, '--requests', file, '--workers', '0', '--html', html);
    expect(run.code).toBe(0);
    type Line = { summary: { pnl_total: number }; copier: { failed_transactions: number } };
    const lines = run.out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Line);
    const { page, problems } = await open(html);
    const cells = () =>
      page.$$eval('[data-test="heatmap"] tbody td', (tds) =>
        tds.map((td) => [Number(td.getAttribute('data-value')), td.getAttribute('style')] as const),
      );
    // Rows: copy_delay_seconds 0, 5, 30; columns: tolerance 1, 3, 10 (request index 3t + d).
    const order = [0, 3, 6, 1, 4, 7, 2, 5, 8];
    const pnl = await cells();
    expect(pnl.map(([v]) => v)).toEqual(order.map((i) => lines[i]!.summary.pnl_total));
    // Colours by rank: distinct values of one sign in different colours while there are at most
    // six, and a larger value never in a lighter green than a smaller one.
    const positive = [...new Set(pnl.filter(([v]) => v > 0).map(([v]) => v))];
    const colourOf = new Map(pnl.map(([v, c]) => [v, c]));
    if (positive.length <= 6) expect(new Set(positive.map((v) => colourOf.get(v))).size).toBe(positive.length);
    const red = (v: number) => Number(/rgb\((\d+),/.exec(colourOf.get(v)!)![1]);
    const deepening = positive.sort((a, b) => a - b).map(red);
    expect(deepening).toEqual([...deepening].sort((a, b) => b - a));
    const legend = await page.$$eval('[data-test="heatmap-legend"] [data-band]', (bands) => bands.length);
    expect(legend).toBeGreaterThan(0);
    await page.select('[data-test="sweep-metric"]', 'copier.failed_transactions');
    const failed = await cells();
    expect(failed.map(([v]) => v)).toEqual(order.map((i) => lines[i]!.copier.failed_transactions));
    const header = await page.$$eval('[data-test="sweep-runs"] thead th', (ths) => ths.map((th) => th.textContent));
    expect(header).toContain('failed tx');
    await screenshot(page, 'sweep-tolerance-delay');
    expect(problems).toEqual([]);
  });

  it('draws the latency curve', async () => {
    const html = join(scratch, 'latency.html');
    expect(
      (await cli('latency', '--tape', TAPE, '--request', REQUEST, '--delays', '0,5,30,120', '--html', html)).code,
    ).toBe(0);
    const { page, problems } = await open(html);
    const ink = await canvasInk(page);
    expect(ink.length).toBe(1);
    expect(ink[0]).toBeGreaterThan(200);
    expect(
      await page.$$eval('[data-test="latency-table"] tbody tr', (r) => r.map((tr) => tr.children[0]!.textContent)),
    ).toEqual(['0', '5', '30', '120']);
    await screenshot(page, 'latency');
    expect(problems).toEqual([]);
  });

  it('draws the ranking: the table and the ROI scatter', async () => {
    const html = join(scratch, 'rank.html');
    const run = await cli(
      'rank',
      '--tape',
      TAPE,
      '--request',
      REQUEST,
      '--top',
      '8',
      '--format',
      'jsonl',
      '--html',
      html,
    );
    expect(run.code).toBe(0);
    const wallets = run.out
      .trim()
      .split('\n')
      .map((l) => (JSON.parse(l) as { wallet: string }).wallet);
    const { page, problems } = await open(html);
    const ink = await canvasInk(page);
    expect(ink.length).toBe(1);
    expect(ink[0]).toBeGreaterThan(200);
    const shown = await page.$$eval('[data-test="rank-table"] tbody tr', (rows) =>
      rows.map((r) => r.children[1]!.getAttribute('title')),
    );
    expect(shown).toEqual(wallets);
    await screenshot(page, 'rank');
    expect(problems).toEqual([]);
  });

  it('draws the out-of-sample part of --split and the balance: after-split columns, correlation, top N', async () => {
    const html = join(scratch, 'rank-split.html');
    const args = ['--split', '2024-03-11', '--balance', '300', '--top', '6', '--format', 'jsonl', '--html', html];
    const run = await cli('rank', '--tape', TAPE, '--request', REQUEST, ...args);
    expect(run.code).toBe(0);
    const lines = run.out.trim().split('\n');
    type Row = { wallet: string; after: { pnl_total: number }; copier: { capital_required: number } };
    const rows = lines.slice(0, -1).map((l) => JSON.parse(l) as Row);
    type Verdict = { spearman: number | null; top: { summary: { pnl_total: number } } };
    const verdict = (JSON.parse(lines.at(-1)!) as { out_of_sample: Verdict }).out_of_sample;
    const { page, problems } = await open(html);
    const table = await page.$$eval('[data-test="rank-table"] tr', (trs) =>
      trs.map((tr) => [...tr.children].map((cell) => cell.textContent)),
    );
    const header = table[0]!;
    for (const column of ['capital required', 'cash skips', 'after PnL', 'after ROI', 'after deals']) {
      expect(header).toContain(column);
    }
    const afterPnl = table.slice(1).map((cells) => Number(cells[header.indexOf('after PnL')]!.replace(/[,+]/g, '')));
    rows.forEach((row, i) => expect(afterPnl[i]).toBeCloseTo(row.after.pnl_total, 2));
    const capital = table.slice(1).map((cells) => Number(cells[header.indexOf('capital required')]!.replace(/,/g, '')));
    rows.forEach((row, i) => expect(capital[i]).toBeCloseTo(row.copier.capital_required, 2));
    const spearman = await page.$eval('[data-test="rank-spearman"]', (p) => p.getAttribute('data-value'));
    expect(spearman === '' ? null : Number(spearman)).toBe(verdict.spearman);
    const top = await page.$eval('[data-test="rank-top"]', (p) => [p.getAttribute('data-value'), p.textContent]);
    expect(Number(top[0])).toBe(verdict.top.summary.pnl_total);
    expect(top[1]).toMatch(/^Copying the before-split top 6 together after the split: .* copies skipped for cash\.$/);
    // Two scatters: own ROI against the copier's, and the copier's before the split against after.
    const ink = await canvasInk(page);
    expect(ink.length).toBe(2);
    expect(Math.min(...ink)).toBeGreaterThan(200);
    await screenshot(page, 'rank-split');
    expect(problems).toEqual([]);
  });
});
