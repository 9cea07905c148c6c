import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { exampleFiles } from '../../scripts/make-example.js';
import {
  parseSimulatorRequest,
  parseTape,
  simulate,
  SimulatorResponseSchema,
  type SimulatorResponse,
} from '../../src/index.js';
import { formatTextReport, shortAddress } from '../../src/report/text-report.js';
import { utcIso } from '../../src/model/utc-time.js';
import { cli } from '../support/cli.js';
import { PROJECT_ROOT } from '../support/paths.js';

const EXAMPLE_DIR = join(PROJECT_ROOT, 'fixtures', 'example');
const WORKED_DIR = join(PROJECT_ROOT, 'fixtures', 'worked-example');
const readJson = (path: string): unknown => JSON.parse(readFileSync(path, 'utf8'));

const scratch = mkdtempSync(join(tmpdir(), 'copysim-example-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('copysim example', () => {
  it('reports both networks and writes each full response, valid and equal to simulate()', async () => {
    const out = join(scratch, 'both');
    const result = await cli('example', '--out', out);
    expect(result.code, result.err).toBe(0);
    for (const network of ['sol', 'eth'] as const) {
      for (const section of [
        `copysim example: ${network}`,
        `Inputs: ${network} · `,
        'Summary',
        'Top 5 deals by PnL',
        'Deals closed by a special rule',
      ]) {
        expect(result.out).toContain(section);
      }
      const file = join(out, `example-${network}.json`);
      expect(result.out).toContain(`full response written to ${file}\n`);
      expect(result.out).toContain(
        `HTML report written to ${join(out, `example-${network}.html`)}: open it in a browser\n`,
      );
      expect(readFileSync(join(out, `example-${network}.html`), 'utf8')).toMatch(/^<!doctype html>/);
      const written = readJson(file);
      expect(SimulatorResponseSchema.safeParse(written).success).toBe(true);
      const request = readJson(join(EXAMPLE_DIR, `request-${network}.json`));
      expect(written).toEqual(simulate(readJson(join(EXAMPLE_DIR, `tape-${network}.json`)) as never, request));
    }
    for (const tag of ['close_all', 'sell_timefix', 'sell_timefix_final'])
      expect(result.out).toMatch(new RegExp(`^  ${tag} +\\d+ deals?  PnL `, 'm'));
  });

  it('prints the same report and writes the same bytes on a second run', async () => {
    const [a, b] = [join(scratch, 'a'), join(scratch, 'b')];
    const first = await cli('example', '--out', a);
    const second = await cli('example', '--out', b);
    expect(second.out.replaceAll(b, a)).toBe(first.out);
    for (const name of ['example-sol.json', 'example-eth.json', 'example-sol.html', 'example-eth.html']) {
      expect(readFileSync(join(b, name), 'utf8')).toBe(readFileSync(join(a, name), 'utf8'));
    }
  });

  it('runs one network with --network', async () => {
    const out = join(scratch, 'eth-only');
    const result = await cli('example', '--network', 'eth', '--out', out);
    expect(result.code, result.err).toBe(0);
    expect(result.out).toContain('copysim example: eth');
    expect(result.out).not.toContain('copysim example: sol');
    expect(existsSync(join(out, 'example-eth.json'))).toBe(true);
    expect(existsSync(join(out, 'example-sol.json'))).toBe(false);
  });

  it.each([
    [['--network', 'btc'], /--network must be sol or eth, not "btc"/],
    [['--colour'], /Unknown option '--colour'/],
  ])('refuses %j with exit 1 and a message', async (args, message) => {
    const result = await cli('example', ...args, '--out', join(scratch, 'refused'));
    expect(result.code).toBe(1);
    expect(result.err).toMatch(message);
    expect(result.out).toBe('');
  });
});

describe('bundled example fixtures', () => {
  it('are exactly what the seeded generator (scripts/make-example.ts) makes', () => {
    for (const [name, text] of Object.entries(exampleFiles())) {
      expect(readFileSync(join(EXAMPLE_DIR, name), 'utf8'), name).toBe(text);
    }
  });

  // [network, native price level, address pattern]
  it.each([
    ['sol', 150, /^[1-9A-HJ-NP-Za-km-z]{32,44}$/],
    ['eth', 3000, /^0x[0-9a-f]{40}$/],
  ] as const)(
    '%s: a realistic tape of leaders, market wallets and pump-and-dump tokens',
    (network, nativeUsd, address) => {
      const path = join(EXAMPLE_DIR, `tape-${network}.json`);
      expect(readFileSync(path).length).toBeLessThan(1_000_000);
      const tape = parseTape(readJson(path));
      const request = readJson(join(EXAMPLE_DIR, `request-${network}.json`)) as { wallets: string[] };
      expect(tape.network).toBe(network);
      expect(tape.swaps.length).toBeGreaterThan(500);
      expect(tape.swaps.length).toBeLessThanOrEqual(5000);
      expect(request.wallets.length).toBeGreaterThanOrEqual(3);
      expect(request.wallets.length).toBeLessThanOrEqual(5);
      for (const leader of request.wallets) expect(tape.swaps.some((s) => s.wallet === leader)).toBe(true);
      expect(new Set(tape.swaps.map((s) => s.wallet)).size).toBeGreaterThan(20);
      for (const s of tape.swaps) {
        expect(s.wallet).toMatch(address);
        expect(s.token).toMatch(address);
      }

      const byToken = new Map<string, typeof tape.swaps>();
      for (const s of tape.swaps) byToken.set(s.token, [...(byToken.get(s.token) ?? []), s]);
      expect(byToken.size).toBeGreaterThanOrEqual(10);
      expect(byToken.size).toBeLessThanOrEqual(20);
      for (const [token, swaps] of byToken) {
        const prices = swaps.map((s) => Number(s.usd_price));
        const peak = Math.max(...prices);
        expect(peak, `${token} rises`).toBeGreaterThan(1.5 * prices[0]!);
        expect(prices.at(-1)!, `${token} collapses`).toBeLessThan(0.8 * peak);
      }
      const neverLiquid = [...byToken.values()].filter((swaps) => swaps.every((s) => s.usd_liquidity == null));
      expect(neverLiquid.length).toBeGreaterThanOrEqual(1);
      expect(Object.keys(tape.tokens).length).toBeLessThan(byToken.size);

      const native = tape.native_prices;
      for (let i = 1; i < native.length; i++) expect(native[i]![0] - native[i - 1]![0]).toBe(3600);
      for (const [, price] of native) expect(Math.abs(Number(price) / nativeUsd - 1)).toBeLessThan(0.2);
      const days = (tape.swaps.at(-1)!.time - tape.swaps[0]!.time) / 86_400;
      expect(days).toBeGreaterThan(2);
      expect(days).toBeLessThan(5);
    },
  );

  it('give a meaningful result: deals won and lost, time-fixes, close_all, open deals', () => {
    const run = (network: string): SimulatorResponse =>
      simulate(
        readJson(join(EXAMPLE_DIR, `tape-${network}.json`)) as never,
        readJson(join(EXAMPLE_DIR, `request-${network}.json`)),
      );
    const deals = [...run('sol').deals, ...run('eth').deals];
    const count = (pred: (d: SimulatorResponse['deals'][number]) => boolean): number => deals.filter(pred).length;
    expect(count((d) => d.pnl_total > 0)).toBeGreaterThanOrEqual(3);
    expect(count((d) => d.pnl_total < 0)).toBeGreaterThanOrEqual(3);
    expect(count((d) => d.special_tag === 'sell_timefix')).toBeGreaterThanOrEqual(1);
    expect(count((d) => d.special_tag === 'sell_timefix_final')).toBeGreaterThanOrEqual(1);
    expect(count((d) => d.special_tag === 'close_all')).toBeGreaterThanOrEqual(1);
    expect(count((d) => d.status === 'open')).toBeGreaterThanOrEqual(2);
    const requests = ['sol', 'eth'].map((n) => parseSimulatorRequest(readJson(join(EXAMPLE_DIR, `request-${n}.json`))));
    const settings = requests.map((r) => (r.success ? r.data : null));
    expect(settings.some((r) => r?.inactivity_time_fix !== null)).toBe(true);
    expect(settings.some((r) => r?.include_bot_fees)).toBe(true);
  });
});

describe('text report', () => {
  it.each([
    [0, '1970-01-01T00:00:00Z'],
    [1710115199, '2024-03-10T23:59:59Z'], // 1710028800 is 2024-03-10 00:00:00, + 86399 s
  ])('utcIso(%i) = %s', (seconds, iso) => expect(utcIso(seconds)).toBe(iso));

  it.each([
    ['8jbYkPiGenVmXvfiKdtTqaZUMbLx8qEiwQBCG2ZB67Hn', '8jbY…67Hn'],
    ['0x8b730cfc8cf82f1c79553c95dbd7092b7508900e', '0x8b73…900e'],
    ['Short', 'Short'],
  ])('shortAddress(%s) = %s', (address, short) => expect(shortAddress(address)).toBe(short));

  const workedRequest = (): Parameters<typeof formatTextReport>[1] => {
    const parsed = parseSimulatorRequest(readJson(join(WORKED_DIR, 'request.json')));
    if (!parsed.success) throw new Error('the worked request is invalid');
    return parsed.data;
  };
  const workedResponse = (): SimulatorResponse =>
    simulate(readJson(join(WORKED_DIR, 'tape.json')) as never, workedRequest());

  it('prints the worked example with hand-checked figures', () => {
    const text = formatTextReport(workedResponse(), workedRequest(), { title: 'worked' });
    // 54.805 rounds half up to 54.81; ROI 100 × 54.805 / 200.5 = 27.334…; bot fees 4.605 → 4.61.
    for (const line of [
      'worked',
      "Inputs: sol · 2 leaders Lead…1111, Lead…2222 · 2024-03-10 → 2024-03-10 UTC · buy 50 % of the leader's amount, at most 100 USD a buy and 150 USD a position · up to 1 extra buy a deal · fees 0.000095 priority + 0 bribe SOL a trade · close_all off · time-fix after 6 h · bot fees on",
      '  PnL          total +54.81 USD · realized +54.81 · unrealized 0.00',
      '  ROI          total +27.33 % · realized +27.33 %',
      '  Investment   200.50 USD (closed deals 200.50 · open deals 0.00)',
      '  Volume       460.50 USD',
      '  Fees         network 0.09 USD · bot 4.61 USD',
      '  Slippage     71.50 USD lost to price impact',
      '  R² (closed)  1.0000 (1 = PnL grew in a straight line, deal after deal)',
      '  Top deal     87.52 % of the positive PnL',
      '  Deals        2: 2 closed, 0 open · 2 won, 0 lost',
      'Top 2 deals by PnL (# = index in deals)',
      '  #  token      open (UTC)            close (UTC)           PnL USD       ROI  tag',
      '  1  NoNa…4444  2024-03-10T20:00:00Z  2024-03-10T23:59:59Z   +47.97  +94.98 %  sell_timefix_final',
      '  0  TOY        2024-03-10T10:00:00Z  2024-03-10T18:00:00Z    +6.84   +4.56 %  sell_timefix',
      '  close_all             0 deals  PnL 0.00 USD',
      '  sell_timefix           1 deal  PnL +6.84 USD',
      '  sell_timefix_final     1 deal  PnL +47.97 USD',
    ]) {
      expect(text.split('\n')).toContain(line);
    }
  });

  it('groups thousands, signs gains and losses, and never prints -0.00', () => {
    const response = workedResponse();
    response.summary.pnl_total = -1234.5;
    response.summary.pnl_unrealized = -0.001;
    response.summary.trading_volume = 1234567.891;
    const text = formatTextReport(response, workedRequest());
    expect(text).toContain('  PnL          total -1,234.50 USD · realized +54.81 · unrealized 0.00\n');
    expect(text).toContain('  Volume       1,234,567.89 USD\n');
    expect(text.startsWith('copysim simulation (sol)\n')).toBe(true);
  });

  it('does not depend on the machine time zone', () => {
    const before = process.env.TZ;
    try {
      process.env.TZ = 'UTC';
      const utc = formatTextReport(workedResponse(), workedRequest());
      process.env.TZ = 'Pacific/Auckland';
      expect(new Date(0).getTimezoneOffset()).not.toBe(0);
      expect(formatTextReport(workedResponse(), workedRequest())).toBe(utc);
    } finally {
      if (before === undefined) delete process.env.TZ;
      else process.env.TZ = before;
    }
  });
});

describe('the worked example of docs/model.md', async () => {
  const doc = readFileSync(join(PROJECT_ROOT, 'docs', 'model.md'), 'utf8');
  const run = await cli(
    'simulate',
    '--tape',
    join(WORKED_DIR, 'tape.json'),
    '--request',
    join(WORKED_DIR, 'request.json'),
  );
  const response = JSON.parse(run.out) as SimulatorResponse;

  it('runs with `copysim simulate` (exit 0)', () => expect(run.code, run.err).toBe(0));

  it('lists every trade as the engine makes it', () => {
    const table = checkTable(doc, 'trades');
    const trades = response.deals.flatMap((deal, index) => deal.trades.map((trade) => ({ deal: index, ...trade })));
    expect(table.rows.length).toBe(trades.length);
    table.rows.forEach((row, i) => expectRow(row, table.header, trades[i]!, `trade ${i}`));
  });

  it('gives every field of every deal', () => {
    const table = checkTable(doc, 'deals');
    expect(table.header).toEqual(['field', ...response.deals.map((_, i) => `deal ${i}`)]);
    const scalarFields = Object.keys(response.deals[0]!).filter((k) => k !== 'trades' && k !== 'token');
    expect(table.rows.map((r) => r[0])).toEqual(
      expect.arrayContaining([...scalarFields, 'token.name', 'token.symbol']),
    );
    for (const [field, ...cells] of table.rows) {
      cells.forEach((cell, d) => expectCell(cell, pathValue(response.deals[d], field!), `deals[${d}].${field}`));
    }
  });

  it('gives every summary figure', () => {
    const table = checkTable(doc, 'summary');
    expect(table.rows.map((r) => r[0]).sort()).toEqual(Object.keys(response.summary).sort());
    for (const [field, cell] of table.rows) expectCell(cell!, pathValue(response.summary, field!), `summary.${field}`);
  });

  it.each([
    'cumulative_pnl_and_fee_chart',
    'cumulative_usd_closed_deals_chart',
    'cumulative_usd_open_deals_chart',
  ] as const)('gives every point of %s', (chart) => {
    const table = checkTable(doc, chart);
    const series = response[chart] as Record<string, unknown[]>;
    expect([...table.header].sort()).toEqual(Object.keys(series).sort());
    table.rows.forEach((row, i) => {
      const point = Object.fromEntries(Object.entries(series).map(([k, v]) => [k, v[i]]));
      expectRow(row, table.header, point, `${chart}[${i}]`);
    });
    expect(series.timestamps!.length).toBe(table.rows.length);
  });
});

/** The markdown table right after `<!-- check: NAME -->` in the doc. */
function checkTable(doc: string, name: string): { header: string[]; rows: string[][] } {
  const start = doc.indexOf(`<!-- check: ${name} -->`);
  expect(start, `docs/model.md has no "<!-- check: ${name} -->" table`).toBeGreaterThanOrEqual(0);
  const lines = doc.slice(start).split('\n').slice(1);
  const table = lines.slice(
    0,
    lines.findIndex((l) => !l.startsWith('|')),
  );
  const cells = (line: string): string[] =>
    line
      .slice(1, -1)
      .split('|')
      .map((c) => c.trim());
  return { header: cells(table[0]!), rows: table.slice(2).map(cells) };
}

function pathValue(value: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>((v, key) => (v as Record<string, unknown>)[key], value);
}

function expectRow(
  row: readonly string[],
  header: readonly string[],
  actual: Record<string, unknown>,
  where: string,
): void {
  header.forEach((field, c) => expectCell(row[c]!, actual[field], `${where}.${field}`));
}

/**
 * A number written in full must equal the engine's (1e-9 relative); one cut short with "…"
 * must agree to every digit shown. Other cells compare as text; "null" is null.
 */
function expectCell(cell: string, actual: unknown, where: string): void {
  const numeric = /^(-?\d+(?:\.(\d+))?)(…)?$/.exec(cell);
  if (cell === 'null') expect(actual, where).toBeNull();
  else if (numeric === null) expect(actual, where).toBe(cell);
  else {
    expect(typeof actual, where).toBe('number');
    const shown = Number(numeric[1]);
    const cut = numeric[3] !== undefined;
    const tolerance = cut ? 10 ** -(numeric[2]?.length ?? 0) : 1e-9 * Math.max(1, Math.abs(shown));
    expect(
      Math.abs((actual as number) - shown),
      `${where}: doc says ${cell}, engine gives ${String(actual)}`,
    ).toBeLessThan(tolerance);
  }
}
