/**
 * Headless chromium for the browser tests and the report benchmark: Debian's package, driven by
 * puppeteer-core (a devDependency: neither ships with copysim).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'puppeteer-core';
import puppeteer from 'puppeteer-core';

/** The browser's executable: Debian's chromium, or CHROMIUM_PATH. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Starts chromium with a fresh profile, removed on close. The flags keep it from reaching out
 * to the network on its own (updates, sync, QUIC probes), which on a closed network fails or
 * stalls; --no-sandbox because tests may run as root in a container.
 */
export async function launchBrowser(): Promise<{ browser: Browser; close: () => Promise<void> }> {
  const profile = mkdtempSync(join(tmpdir(), 'copysim-chromium-'));
  const browser = await puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      `--user-data-dir=${profile}`,
    ],
    defaultViewport: { width: 1280, height: 900 },
  });
  return {
    browser,
    close: async () => {
      await browser.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
