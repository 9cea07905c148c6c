/**
 * A real browser for the tests: Debian's chromium, driven by puppeteer-core, headless and
 * offline. Without chromium the browser tests skip with a message, except in CI (the variable
 * CI set), where they fail: `.ci/run` installs chromium.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'puppeteer-core';
import { CHROMIUM } from '../../tools/chromium.js';
import { PROJECT_ROOT } from './paths.js';

export { launchBrowser } from '../../tools/chromium.js';

/** Where the tests' screenshots go (not committed: .gitignore). */
export const SCREENSHOT_DIR = join(PROJECT_ROOT, 'test-screenshots');

/** Why the browser tests cannot run here, or null when they can. Throws in CI. */
export function browserMissing(): string | null {
  if (existsSync(CHROMIUM)) return null;
  const reason = `chromium is not installed at ${CHROMIUM} (apt-get install -y chromium; or set CHROMIUM_PATH)`;
  if (process.env.CI) throw new Error(`CI: the browser tests must run, but ${reason}`);
  return reason;
}

/** What went wrong on a page: console errors, uncaught exceptions and failed requests. */
export function watchProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console error: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`page error: ${(e as Error).message}`));
  page.on('requestfailed', (r) =>
    problems.push(`request failed: ${r.url().slice(0, 120)} ${r.failure()?.errorText ?? ''}`),
  );
  page.on('response', (r) => {
    if (r.status() >= 400) problems.push(`HTTP ${r.status()}: ${r.url().slice(0, 120)}`);
  });
  return problems;
}

/**
 * For every canvas of the page, how many of its pixels are drawn (not transparent and not
 * white): a chart that drew nothing has only its background.
 */
export async function canvasInk(page: Page): Promise<number[]> {
  return page.$$eval('canvas', (canvases) =>
    canvases.map((canvas) => {
      const { data } = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height);
      let ink = 0;
      for (let i = 0; i < data.length; i += 4) {
        if (data[i + 3]! > 0 && (data[i]! < 245 || data[i + 1]! < 245 || data[i + 2]! < 245)) ink++;
      }
      return ink;
    }),
  );
}

/**
 * For every canvas of the page, the drawn pixels in its last `columns` columns over its bottom
 * `rows` rows, where the time axis writes its labels: a label cut off by the canvas's right edge
 * leaves ink there.
 */
export async function rightEdgeInk(page: Page, columns = 3, rows = 50): Promise<number[]> {
  return page.$$eval(
    'canvas',
    (canvases, [columns, rows]) =>
      canvases.map((canvas) => {
        const context = canvas.getContext('2d')!;
        const { data } = context.getImageData(canvas.width - columns!, canvas.height - rows!, columns!, rows!);
        let ink = 0;
        for (let i = 0; i < data.length; i += 4) {
          if (data[i + 3]! > 0 && (data[i]! < 200 || data[i + 1]! < 200 || data[i + 2]! < 200)) ink++;
        }
        return ink;
      }),
    [columns, rows],
  );
}

/** Saves the whole page (or, with `fullPage` false, what the window shows) as SCREENSHOT_DIR/NAME.png. */
export async function screenshot(page: Page, name: string, fullPage = true): Promise<string> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const file = join(SCREENSHOT_DIR, `${name}.png`);
  await page.screenshot({ path: file as `${string}.png`, fullPage });
  return file;
}
