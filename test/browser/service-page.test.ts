/**
 * The service's web page in a real browser, against a running `copysim serve` of the bundled
 * sol example and of the real PumpSwap capture: enter a key, open the wallet list (5 credits),
 * sort it, fill in the settings, run the simulator (10 credits) and see its report, see the
 * service's message under a field that fails validation (nothing charged), and open a wallet's
 * page (4 reads of 1 credit).
 */
import { copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readJson } from '../../src/io/files.js';
import { KeyStore } from '../server/support/api.js';
import { ensureBuild } from '../server/support/build.js';
import { serve, workspace, type ServeProcess, type Workspace } from '../server/support/serve.js';
import { browserMissing, canvasInk, launchBrowser, screenshot, watchProblems } from '../support/browser.js';
import { PROJECT_ROOT, present, REAL_DATA_DIR } from '../support/paths.js';
import { REAL_TAPES } from '../support/real-tapes.js';
import { suggestRequest } from '../../src/import.js';

const missing = browserMissing();
if (missing !== null) console.warn(`browser tests skipped: ${missing}`);

const EXAMPLE = join(PROJECT_ROOT, 'fixtures', 'example');

/**
 * A served tape: written into the service's data folder; the window to simulate; wallets to
 * paste (none: the list's ticked ones); the first and last day of its swaps.
 */
interface Served {
  readonly writeTape: (file: string) => void;
  readonly request: { readonly from_date: string; readonly to_date: string };
  readonly paste: readonly string[];
  readonly days: readonly [string, string];
}

/** The first and last UTC day of a tape's swaps. */
function daysOf(swaps: readonly { readonly time: number }[]): [string, string] {
  const times = swaps.map((s) => s.time);
  const day = (t: number): string => new Date(t * 1000).toISOString().slice(0, 10);
  return [day(Math.min(...times)), day(Math.max(...times))];
}

function example(): Served {
  const request = readJson(join(EXAMPLE, 'request-sol.json'), 'request') as Served['request'];
  const days = daysOf((readJson(join(EXAMPLE, 'tape-sol.json'), 'tape') as { swaps: { time: number }[] }).swaps);
  return { writeTape: (file) => copyFileSync(join(EXAMPLE, 'tape-sol.json'), file), request, paste: [], days };
}

function pumpSwap(): Served {
  const imported = REAL_TAPES.find(([name]) => name.startsWith('PumpSwap'))![1]();
  const request = suggestRequest(imported.tape, 20)!;
  const writeTape = (file: string): void => writeFileSync(file, JSON.stringify(imported.tape));
  return { writeTape, request, paste: request.wallets, days: daysOf(imported.tape.swaps) };
}

servicePageChecks('the bundled sol example', example);
if (present(REAL_DATA_DIR)) servicePageChecks('the real PumpSwap capture', pumpSwap);
else console.warn(`the PumpSwap web page test skipped: ${REAL_DATA_DIR} is absent on this machine`);

function servicePageChecks(name: string, served: () => Served): void {
  describe.skipIf(missing !== null)(`the web page of copysim serve, on ${name}`, () => {
    let request: Served['request'];
    let paste: readonly string[];
    let days: Served['days'];
    let ws: Workspace;
    let server: ServeProcess;
    let browser: Browser;
    let close: () => Promise<void>;
    let page: Page;
    let problems: string[];
    let key: string;

    beforeAll(async () => {
      const build = await ensureBuild();
      ws = workspace([]);
      const tape = served();
      tape.writeTape(join(ws.data, 'tape-sol.json'));
      ({ request, paste, days } = tape);
      server = await serve(build, ws);
      const store = KeyStore.open(ws.db, { now: () => 1_700_000_000 });
      key = store.create({ credits: 100, label: 'browser' }).key;
      store.close();
      ({ browser, close } = await launchBrowser());
      page = await browser.newPage();
      problems = watchProblems(page);
      await page.goto(server.url, { waitUntil: 'load' });
      await page.waitForSelector('[data-test="settings-form"]');
    }, 90_000);

    afterAll(async () => {
      await close?.();
      await server?.stop();
      ws?.remove();
    });

    const credits = (): Promise<string> => page.$eval('[data-test="credits"]', (e) => e.textContent ?? '');
    const field = async (path: string, value: string): Promise<void> => {
      await page.$eval(`[data-path="${path}"]`, (e) => ((e as unknown as { value: string }).value = ''));
      await page.type(`[data-path="${path}"]`, value);
    };

    it('opens the wallet list with the key entered (5 credits) and sorts it', async () => {
      await page.type('[data-test="key"]', key);
      await page.click('[data-test="connect"]');
      await page.waitForSelector('[data-test="wallet-list"] tbody tr');
      expect(await credits()).toBe('95');
      await page.click('[data-test="wallet-list"] th[data-key="deals_number"]');
      const deals = await page.$$eval('[data-test="wallet-list"] tbody tr', (rows) =>
        rows.map((r) => Number(r.children[5]!.textContent)),
      );
      expect(deals.length).toBeGreaterThan(3);
      expect(deals).toEqual([...deals].sort((a, b) => b - a));
    });

    it("fills in the tape's days, writes each member's unit, and offers the copier's wallet settings", async () => {
      const value = (path: string): Promise<string> =>
        page.$eval(`[data-path="${path}"]`, (e) => (e as unknown as { value: string }).value);
      expect([await value('from_date'), await value('to_date')]).toEqual(days);
      const unit = (name: string): Promise<string | null> => page.$eval(`[data-unit="${name}"]`, (e) => e.textContent);
      expect(await unit('priority_fee')).toBe('SOL');
      expect(await unit('bribe')).toBe('SOL');
      expect(await unit('max_buy_amount')).toBe('USD');
      expect(await unit('buy_percentage')).toBe('%');
      expect(await unit('copy_delay_seconds')).toBe('s');
      await page.select('[data-test="network"]', 'eth');
      expect(await unit('priority_fee')).toBe('ETH');
      await page.select('[data-test="network"]', 'sol');
      expect(await unit('priority_fee')).toBe('SOL');
      const copierMembers = [
        'starting_balance_usd',
        'reserve_usd',
        'max_open_deals',
        'slippage_tolerance_percent',
        'failed_transaction_percent',
        'retries',
        'retry_delay_seconds',
        'sandwich_percent',
        'random_seed',
        'report_wallet',
        'report_leaders',
      ];
      for (const member of copierMembers) {
        expect(await page.$(`[data-path="strategy.${member}"]`), member).not.toBeNull();
      }
      await screenshot(page, `service-page-${name.replace(/\W+/g, '-')}-form`);
    });

    it("shows the service's message under a field that fails validation, and charges nothing", async () => {
      await field('from_date', request.from_date);
      await field('to_date', request.to_date);
      await field('buy_percentage', '0');
      await page.click('[data-test="run"]');
      await page.waitForFunction('document.querySelector(\'[data-problem="buy_percentage"]\').textContent !== ""');
      expect(await page.$eval('[data-problem="buy_percentage"]', (e) => e.textContent)).toMatch(
        />\s*0|greater than 0/i,
      );
      expect(await credits()).toBe('95');
      // The 400 itself is all the browser reports; nothing else went wrong.
      expect(problems.filter((p) => !p.includes('400'))).toEqual([]);
      problems.length = 0;
    });

    it('runs a simulation end to end: the report is drawn and the credits drop by 10', async () => {
      await field('buy_percentage', '50');
      if (paste.length > 0) {
        // Copy the pasted wallets alone: untick the list's.
        await page.$$eval('[data-test="wallet-list"] tbody input:checked', (boxes) =>
          boxes.forEach((b) => (b as unknown as { click(): void }).click()),
        );
        await page.type('[data-test="extra-wallets"]', paste.join('\n'));
      }
      await page.click('[data-test="run"]');
      await page.waitForSelector(
        '[data-test="report"] [data-test="deals-table"] tbody tr, [data-test="message"]:not(:empty)',
      );
      expect(await page.$eval('[data-test="message"]', (e) => e.textContent)).toBe('');
      expect(await credits()).toBe('85');
      expect(await page.$eval('[data-problem="buy_percentage"]', (e) => e.textContent)).toBe('');
      const ink = await canvasInk(page);
      expect(ink.length).toBe(3);
      for (const [i, n] of ink.entries()) expect(n, `canvas ${i} has drawn pixels`).toBeGreaterThan(200);
      await page.click('[data-test="report"] [data-test="deals-table"] tbody tr');
      await page.waitForSelector('[data-test="trades-table"] tbody tr');
      await screenshot(page, `service-page-${name.replace(/\W+/g, '-')}-report`);
      expect(problems).toEqual([]);
    });

    it("opens a wallet's page: indicators, charts and deals (4 credits)", async () => {
      await page.click('[data-test="wallet-list"] a.wallet-link');
      await page.waitForSelector('[data-test="wallet-deals"] tbody tr');
      expect(await credits()).toBe('81');
      const rows = await page.$$eval('[data-test="indicators"] tbody tr', (r) => r.length);
      expect(rows).toBeGreaterThan(5);
      const ink = await canvasInk(page);
      expect(
        ink.slice(4).every((n) => n > 200),
        'the wallet charts have drawn pixels',
      ).toBe(true);
      await screenshot(page, `service-page-${name.replace(/\W+/g, '-')}-wallet`);
      expect(problems).toEqual([]);
    });

    it("runs the copier's wallet: its cards, each leader's share, where its chart is drawn (10 credits)", async () => {
      await page.click('[data-path="strategy"]');
      await field('strategy.starting_balance_usd', '500');
      await field('strategy.slippage_tolerance_percent', '15');
      await page.click('[data-path="strategy.report_leaders"]');
      await page.click('[data-test="run"]');
      await page.waitForSelector('[data-test="report"] [data-test="copier"], [data-test="message"]:not(:empty)');
      expect(await page.$eval('[data-test="message"]', (e) => e.textContent)).toBe('');
      expect(await credits()).toBe('71');
      expect(await page.$eval('[data-test="copier"]', (e) => e.textContent)).toContain('from 500.00');
      const leaders = await page.$$eval('[data-test="leaders"] tbody tr', (rows) => rows.length);
      expect(leaders).toBeGreaterThan(0);
      // The simulator's answer holds no cash and equity points: the page says where they are drawn.
      const missingChart = await page.$eval('[data-test="wallet-chart-missing"]', (e) => e.textContent);
      expect(missingChart).toContain('copysim simulate');
      const settings = await page.$$eval('[data-test="strategy"] li', (items) => items.map((li) => li.textContent));
      expect(settings).toEqual(expect.arrayContaining(['a balance of 500 USD', 'slippage tolerance 15 %']));
      await screenshot(page, `service-page-${name.replace(/\W+/g, '-')}-copier`);
      expect(problems).toEqual([]);
    });
  });
}
