/**
 * The HTML report in a real browser (headless chromium): it opens from the disk with no console
 * error and no failed request, every chart draws, the deals table sorts and filters, and a
 * click on a deal shows its trades and its price chart. On the bundled example and, when
 * ../shared/real-data is here, on the real PumpSwap capture.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  assembleResponse,
  indexTape,
  parseSimulatorRequest,
  simulate,
  type SimulatorRequest,
  type SimulatorResponse,
} from '../../src/index.js';
import { suggestRequest } from '../../src/import.js';
import { simulateParts } from '../../src/simulate.js';
import { strategyPhrases } from '../../web/report/strategy-text.js';
import type { IndexedTape } from '../../src/engine/tape-index.js';
import { readTapeFile } from '../../src/io/read-tape.js';
import { readJson } from '../../src/io/files.js';
import { simulationReportHtml, writeHtmlFile } from '../../src/report/html/index.js';
import {
  browserMissing,
  canvasInk,
  launchBrowser,
  rightEdgeInk,
  screenshot,
  watchProblems,
} from '../support/browser.js';
import { PROJECT_ROOT, present, REAL_DATA_DIR } from '../support/paths.js';
import { REAL_TAPES } from '../support/real-tapes.js';

const missing = browserMissing();
if (missing !== null) console.warn(`browser tests skipped: ${missing}`);

const scratch = mkdtempSync(join(tmpdir(), 'copysim-report-'));
let browser: Browser;
let close: () => Promise<void>;

beforeAll(async () => {
  if (missing !== null) return;
  ({ browser, close } = await launchBrowser());
}, 60_000);
afterAll(async () => {
  await close?.();
  rmSync(scratch, { recursive: true, force: true });
});

interface Run {
  readonly tape: IndexedTape;
  readonly request: SimulatorRequest;
  readonly response: SimulatorResponse;
  /** The copier's cash and equity points, when the run's are at hand. */
  readonly copierPoints?: readonly number[] | null;
}

/** The bundled sol example: its request runs the copier's wallet and reports its leaders. */
function exampleRun(): Run {
  const tape = readTapeFile(join(PROJECT_ROOT, 'fixtures/example/tape-sol.json'));
  const parsed = parseSimulatorRequest(readJson(join(PROJECT_ROOT, 'fixtures/example/request-sol.json'), 'request'));
  if (!parsed.success) throw new Error('the bundled request is invalid');
  const parts = simulateParts(tape, parsed.data, {}, { copierPoints: true });
  return { tape, request: parsed.data, response: assembleResponse(parts), copierPoints: parts.copierPoints };
}

function pumpSwapRun(): Run {
  const imported = REAL_TAPES.find(([name]) => name.startsWith('PumpSwap'))![1]();
  const tape = indexTape(imported.tape);
  const parsed = parseSimulatorRequest({ ...suggestRequest(imported.tape, 20)!, close_all: true });
  if (!parsed.success) throw new Error('the suggested request is invalid');
  return { tape, request: parsed.data, response: simulate(tape, parsed.data) };
}

/** Writes the run's report and opens it from the disk, collecting the page's problems. */
async function openReport(name: string, run: Run): Promise<{ page: Page; problems: string[] }> {
  const file = join(scratch, `${name.replace(/\W+/g, '-')}.html`);
  writeHtmlFile(file, simulationReportHtml({ title: `copysim simulation: ${name}`, ...run }));
  const page = await browser.newPage();
  const problems = watchProblems(page);
  await page.goto(pathToFileURL(file).href, { waitUntil: 'load' });
  await page.waitForSelector('[data-test="deals-table"] tbody tr');
  return { page, problems };
}

/** The deals table's visible rows, as the text of each cell. */
async function tableRows(page: Page): Promise<string[][]> {
  return page.$$eval('[data-test="deals-table"] tbody tr', (rows) =>
    rows.map((r) => [...r.children].map((td) => td.textContent ?? '')),
  );
}

const COLUMN = { index: 0, token: 1, pnl: 6, tag: 9 } as const;
const number = (text: string): number => Number(text.replace(/[,+]/g, ''));

function reportChecks(name: string, run: () => Run): void {
  describe.skipIf(missing !== null)(`the report of ${name}`, () => {
    let page: Page;
    let problems: string[];
    let data: Run;
    beforeAll(async () => {
      data = run();
      ({ page, problems } = await openReport(name, data));
    }, 60_000);
    afterAll(() => page?.close());

    /** PnL and fees, drawdown, the deals' scatter; before them the copier's cash and equity, and its drawdown. */
    const charts = (): number => 3 + (data.response.copier !== undefined && data.copierPoints ? 2 : 0);

    it('opens with no console error, no failed request, and every chart drawn', async () => {
      const ink = await canvasInk(page);
      expect(ink.length).toBe(charts());
      for (const [i, n] of ink.entries()) expect(n, `canvas ${i} has drawn pixels`).toBeGreaterThan(200);
      const summary = await page.$eval('[data-test="summary"]', (e) => e.textContent ?? '');
      expect(summary).toContain(`${data.response.deals.length}`);
      await screenshot(page, `report-${name.replace(/\W+/g, '-')}`);
      // What the window shows first: docs/report-example.png is this picture of the example.
      await screenshot(page, `report-${name.replace(/\W+/g, '-')}-window`, false);
      expect(problems).toEqual([]);
    });

    it('sorts the deals by PnL, both ways, and filters them by tag and by token', async () => {
      const deals = data.response.deals;
      await page.click('th[data-key="pnl_total"]');
      let rows = await tableRows(page);
      const best = Math.max(...deals.map((d) => d.pnl_total));
      expect(number(rows[0]![COLUMN.pnl]!)).toBeCloseTo(best, 2);
      const shown = rows.map((r) => number(r[COLUMN.pnl]!));
      expect(shown).toEqual([...shown].sort((a, b) => b - a));
      await page.click('th[data-key="pnl_total"]');
      rows = await tableRows(page);
      expect(number(rows[0]![COLUMN.pnl]!)).toBeCloseTo(Math.min(...deals.map((d) => d.pnl_total)), 2);

      const tag = deals.find((d) => d.special_tag !== null)?.special_tag ?? null;
      if (tag !== null) {
        await page.select('[data-test="tag-filter"]', tag);
        rows = await tableRows(page);
        const tagged = deals.filter((d) => d.special_tag === tag).length;
        expect(rows.length).toBe(Math.min(50, tagged));
        expect(new Set(rows.map((r) => r[COLUMN.tag]))).toEqual(new Set([tag]));
        expect(await page.$eval('[data-test="deal-count"]', (e) => e.textContent)).toBe(
          `${tagged} of ${deals.length} deals`,
        );
        await page.select('[data-test="tag-filter"]', 'all');
      }

      const token = deals[0]!.token;
      await page.type('[data-test="token-filter"]', token.address);
      rows = await tableRows(page);
      const ofToken = deals.filter((d) => d.token.address === token.address).length;
      expect(rows.length).toBe(Math.min(50, ofToken));
      await page.$eval('[data-test="token-filter"]', (e) => {
        (e as unknown as { value: string }).value = '';
        e.dispatchEvent(new Event('input'));
      });
      expect((await tableRows(page)).length).toBe(Math.min(50, deals.length));
    });

    it("shows a deal's trades and its price chart on a click", async () => {
      // The deal with the most trades, found in the table after sorting by trades.
      await page.click('th[data-key="trades_number"]');
      const first = await page.$eval('[data-test="deals-table"] tbody tr', (r) => Number(r.getAttribute('data-deal')));
      const deal = data.response.deals[first]!;
      expect(deal.trades_number).toBe(Math.max(...data.response.deals.map((d) => d.trades_number)));
      await page.click('[data-test="deals-table"] tbody tr');
      await page.waitForSelector('[data-test="trades-table"]');
      const trades = await page.$$eval('[data-test="trades-table"] tbody tr', (rows) =>
        rows.map((r) => r.children[1]!.textContent),
      );
      expect(trades).toEqual(deal.trades.map((t) => t.type));
      expect(await page.$eval('[data-test="deal-title"]', (e) => e.textContent)).toContain(`Deal #${first}`);
      const ink = await canvasInk(page);
      expect(ink.length).toBe(charts() + 1);
      expect(ink[charts()], 'the price chart has drawn pixels').toBeGreaterThan(200);
      await screenshot(page, `report-${name.replace(/\W+/g, '-')}-deal`);
      expect(problems).toEqual([]);
    });

    it('cuts no time axis label at the right edge of any chart, the deal chart included', async () => {
      const edges = await rightEdgeInk(page);
      expect(edges.length).toBe(charts() + 1);
      edges.forEach((ink, i) => expect(ink, `canvas ${i}: ink at its right edge, under the axis`).toBe(0));
    });

    it('shows the strategy in words, not as JSON, and the risk figures', async () => {
      const settings = await page.$eval('.settings', (e) => e.textContent ?? '');
      expect(settings).not.toContain('{');
      const phrases = await page.$$eval('[data-test="strategy"] li', (items) => items.map((li) => li.textContent));
      expect(phrases).toEqual(data.request.strategy === null ? [] : strategyPhrases(data.request.strategy));
      const summary = await page.$eval('[data-test="summary"]', (e) => e.textContent ?? '');
      for (const label of ['Max drawdown', 'Win rate', 'Profit factor']) expect(summary).toContain(label);
    });

    it("shows the copier's wallet and each leader's share when the response has them", async () => {
      const { copier, leaders } = data.response;
      expect((await page.$('[data-test="copier"]')) !== null).toBe(copier !== undefined);
      expect((await page.$('[data-test="leaders"]')) !== null).toBe(leaders !== undefined);
      if (copier !== undefined) {
        const cards = await page.$eval('[data-test="copier"]', (e) => e.textContent ?? '');
        const usd = (v: number): string =>
          v.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
        expect(cards).toContain(`Capital required${usd(copier.capital_required)} USD`);
        const fees = usd(copier.failed_transaction_fees);
        expect(cards).toContain(`Failed transactions${copier.failed_transactions}${fees} USD in fees`);
        const loss = usd(copier.sandwich_loss);
        expect(cards).toContain(`Sandwiched trades${copier.sandwiched_trades}${loss} USD lost to sandwiches`);
        if (copier.ending_equity !== null) expect(cards).toContain(`Ending equity${usd(copier.ending_equity)} USD`);
        // The window at the copier's section: docs/report-copier.png is this picture of the example.
        await page.$eval('[data-test="copier"]', (e) => e.closest('section')!.scrollIntoView());
        await screenshot(page, `report-${name.replace(/\W+/g, '-')}-copier`, false);
      }
      if (leaders !== undefined) {
        const rows = await page.$$eval('[data-test="leaders"] tbody tr', (r) =>
          r.map((tr) => tr.getAttribute('data-wallet')),
        );
        expect([...rows].sort()).toEqual(leaders.map((l) => l.wallet).sort());
      }
    });
  });
}

describe.skipIf(missing !== null)('the report of a saved response, without its run', () => {
  it("draws the copier's cards and says what its cash and equity chart needs", async () => {
    const { tape, request, response } = exampleRun();
    const { page, problems } = await openReport('saved sol example', { tape, request, response, copierPoints: null });
    expect(await page.$('[data-test="copier"]')).not.toBeNull();
    const missingChart = await page.$eval('[data-test="wallet-chart-missing"]', (e) => e.textContent);
    expect(missingChart).toContain('--tape and --request');
    expect((await canvasInk(page)).length).toBe(3);
    expect(problems).toEqual([]);
    await page.close();
  });
});

reportChecks('the bundled sol example', exampleRun);
if (present(REAL_DATA_DIR)) reportChecks('the real PumpSwap capture', pumpSwapRun);
else console.warn(`the PumpSwap report test skipped: ${REAL_DATA_DIR} is absent on this machine`);
