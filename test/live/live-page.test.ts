/**
 * The live page of `copysim follow` in a real browser (headless chromium): opened before the
 * feed comes, it shows the run as the server-sent events bring it — the status, open
 * positions, the PnL and equity chart, recent trades and skipped copies — and the final
 * response once the feed passes window_end, without a reload; and the service stops with the page
 * still listening.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestWindow, type SimulatorRequest } from '../../src/model/request.js';
import { ensureBuild } from '../server/support/build.js';
import { browserMissing, canvasInk, launchBrowser, screenshot, watchProblems } from '../support/browser.js';
import { feedOf } from './support/feeder.js';
import { feedAll, feedSteps, follow, type FollowProcess } from './support/follow.js';
import { generatedFeeds } from './support/generated.js';

const missing = browserMissing();
if (missing !== null) console.warn(`the live page test skipped: ${missing}`);

describe.skipIf(missing !== null)('the live page of copysim follow', () => {
  const feed = generatedFeeds(2000, 5)[2]!;
  const end = requestWindow(feed.request as unknown as SimulatorRequest).end;
  const steps = feedSteps(feedOf(feed.tape, { lateness: 2, windowEnd: end, seed: 3, maxBatch: 40 }));
  let work: string;
  let run: FollowProcess;
  let browser: Browser;
  let close: () => Promise<void>;
  let page: Page;
  let problems: string[];

  beforeAll(async () => {
    const build = await ensureBuild();
    work = mkdtempSync(join(tmpdir(), 'copysim-live-page-'));
    writeFileSync(join(work, 'request.json'), JSON.stringify(feed.request));
    run = await follow(build, join(work, 'request.json'), join(work, 'run'));
    ({ browser, close } = await launchBrowser());
    page = await browser.newPage();
    problems = watchProblems(page);
    await page.goto(run.url, { waitUntil: 'load' });
    await page.waitForSelector('[data-test="status"] .running');
  }, 90_000);

  afterAll(async () => {
    await close?.();
    await run?.stop();
    rmSync(work, { recursive: true, force: true });
  });

  const text = (selector: string): Promise<string> => page.$eval(selector, (e) => e.textContent ?? '');

  it('shows the run so far as the feed comes: open positions, the chart, trades, skipped copies', async () => {
    await feedAll(run.url, steps.slice(0, Math.floor(steps.length / 2)));
    await page.waitForFunction('document.querySelectorAll(\'[data-test="open-positions"] tbody tr\').length > 0', {
      timeout: 20_000,
    });
    await page.waitForSelector('[data-test="pnl-chart"] canvas');
    expect(await text('[data-test="status"]')).toMatch(/running.*feed time 2024-.*swaps applied/);
    expect(await page.$$eval('[data-test="recent-trades"] tbody tr', (rows) => rows.length)).toBeGreaterThan(5);
    expect(await page.$$eval('[data-test="skipped"] tbody tr', (rows) => rows.length)).toBeGreaterThan(0);
    expect(await text('[data-test="summary"]')).toMatch(/PnL total.*Equity/);
    const ink = await canvasInk(page);
    expect(
      ink.some((n) => n > 200),
      'the PnL chart has drawn pixels',
    ).toBe(true);
    await screenshot(page, 'live-page-running');
  });

  it('shows the final response when the feed passes window_end, without a reload', async () => {
    await feedAll(run.url, steps.slice(Math.floor(steps.length / 2)));
    await page.waitForSelector('[data-test="status"] .ended', { timeout: 20_000 });
    await page.waitForFunction('document.querySelectorAll(\'[data-test="open-positions"] tbody tr\').length === 0', {
      timeout: 20_000,
    });
    expect(await text('[data-test="open-positions"] h2')).toBe('Open positions (0)');
    await screenshot(page, 'live-page-ended');
    expect(problems).toEqual([]);
  });

  it('stops cleanly on SIGTERM with the page still open on its event stream', async () => {
    expect(await run.stop()).toBe(0);
  });
});
