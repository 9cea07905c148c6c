import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { launchBrowser } from '../../tools/chromium.js';
import { measure, type Measurement } from '../measure.js';
import { row, type Row } from './row.js';

function check(m: Measurement, what: string): Measurement {
  if (m.exitCode !== 0) throw new Error(`${what} exited with code ${m.exitCode}`);
  return m;
}

/**
 * The HTML report of a large simulation: `copysim simulate --html` against plain `copysim
 * simulate` side by side (what the report adds to a run), the report's size, and the time
 * headless chromium takes to open it from the disk and draw it (navigation start to the end of
 * drawing, as the page itself records it), best of `rounds` each.
 */
export async function reportSuite(
  tape: string,
  request: string,
  swaps: number,
  rounds: number,
  targets = true,
): Promise<Row[]> {
  const dir = mkdtempSync(join(tmpdir(), 'copysim-report-bench-'));
  const file = join(dir, 'report.html');
  try {
    const plain: Measurement[] = [];
    const withHtml: Measurement[] = [];
    for (let i = 0; i < rounds; i++) {
      plain.push(check(measure(['cli', 'simulate', '--tape', tape, '--request', request]), 'copysim simulate'));
      withHtml.push(
        check(
          measure(['cli', 'simulate', '--tape', tape, '--request', request, '--html', file]),
          'copysim simulate --html',
        ),
      );
    }
    const megabytes = statSync(file).size / 1e6;

    const { browser, close } = await launchBrowser();
    const opens: number[] = [];
    try {
      for (let i = 0; i < rounds; i++) {
        const page = await browser.newPage();
        await page.goto(pathToFileURL(file).href, { waitUntil: 'load', timeout: 120_000 });
        await page.waitForSelector('html[data-rendered-ms]', { timeout: 120_000 });
        opens.push(Number(await page.$eval('html', (e) => e.getAttribute('data-rendered-ms'))));
        await page.close();
      }
    } finally {
      await close();
    }
    const best = (ms: Measurement[]): number => Math.min(...ms.map((m) => m.wallMs));
    const note = `${swaps.toLocaleString('en-US')} swaps, best of ${rounds} side by side`;
    return [
      row('report', 'copysim simulate', best(plain), 'ms', { note: `${note}, output to /dev/null` }),
      row('report', 'copysim simulate --html', best(withHtml), 'ms', { note: `${note}, the same and the report` }),
      row('report', 'report size', megabytes, 'MB', {
        ...(targets ? { atMost: 20 } : {}),
        note: 'one self-contained HTML file',
      }),
      row('report', 'open and draw in headless chromium', Math.min(...opens), 'ms', {
        ...(targets ? { atMost: 3000 } : {}),
        note: `file:// navigation start to the page drawn, best of ${rounds}`,
      }),
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
