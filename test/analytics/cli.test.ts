/** `copysim wallet …` and `copysim wallets`: output, exit codes 0 / 2 / 1, help. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { WALLET_HELP } from '../../src/cli/wallet-command.js';
import { WALLETS_HELP } from '../../src/cli/wallets-command.js';
import {
  ListWalletsResultSchema,
  WalletDealsResultSchema,
  WalletIndicatorsResultSchema,
  WalletInvestmentChartResultSchema,
} from '../../src/analytics.js';
import { cli } from '../support/cli.js';
import { checked, mainTape, T0, W } from './support.js';

const dir = mkdtempSync(join(tmpdir(), 'copysim-analytics-'));
const tape = join(dir, 'tape.json');
writeFileSync(tape, JSON.stringify(mainTape()));
const broken = join(dir, 'broken.json');
writeFileSync(broken, JSON.stringify({ network: 'sol', swaps: [{ wallet: W }] }));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('copysim wallet', () => {
  it.each([
    [['indicators'], WalletIndicatorsResultSchema],
    [['deals', '--per-page', '1'], WalletDealsResultSchema],
    [['investment-chart', '--period', '24h'], WalletInvestmentChartResultSchema],
    [['investment-chart', '--from-time', String(T0), '--to-time', String(T0 + 500)], WalletInvestmentChartResultSchema],
  ])('%j prints the result payload and exits 0', async (args, schema) => {
    const [read, ...flags] = args;
    const run = await cli('wallet', read!, W, '--tape', tape, '--network', 'sol', ...flags);
    expect(run.code).toBe(0);
    checked(schema, JSON.parse(run.out));
  });

  it('pages the deals as asked', async () => {
    const run = await cli('wallet', 'deals', W, '--tape', tape, '--network', 'sol', '--per-page', '1', '--page', '2');
    const result = JSON.parse(run.out) as { deals: { id: number }[]; page: unknown };
    expect([result.deals.map((d) => d.id), result.page]).toEqual([[1], { current: 2, per_page: 1 }]);
  });

  it('notes the sells set aside on standard error', async () => {
    const run = await cli('wallet', 'indicators', W, '--tape', tape, '--network', 'sol');
    expect(run.err).toContain('1 sell(s) of this wallet had no open deal and were ignored');
    expect(run.err).toContain('1 sell(s) of this wallet sold more than was held');
  });

  it.each([
    [['pnl-chart', W, '--network', 'sol'], 'period_required'],
    [['deals', W], 'validation_error'], // --network missing
    [['deals', W, '--network', 'eth'], 'validation_error'],
    [['deals', W, '--network', 'sol', '--per-page', '500'], 'validation_error'],
    [['indicators', W, '--network', 'sol', '--period', '24h'], 'validation_error'], // no period on indicators
  ])('%j prints the 400 body and exits 2', async (args, code) => {
    const run = await cli('wallet', ...args, '--tape', tape);
    expect(run.code).toBe(2);
    expect(JSON.parse(run.out)).toMatchObject({ code });
  });

  it.each([
    [['deals', W, '--network', 'sol', '--tape', join(dir, 'missing.json')], 'no such file'],
    [['deals', W, '--network', 'sol', '--tape', broken], 'swap 0'],
    [['deals', W, '--network', 'sol'], 'needs --tape'],
    [['trades', W, '--tape', tape], 'wallet needs one of deals, indicators, pnl-chart, investment-chart'],
    [['deals', '--tape', tape], 'needs the wallet ADDRESS'],
    [['deals', W, '--tape', tape, '--now', 'soon'], '--now must be whole seconds'],
  ])('%j is a message on standard error and exit 1', async (args, message) => {
    const run = await cli('wallet', ...args);
    expect(run.code).toBe(1);
    expect(run.out).toBe('');
    expect(run.err).toContain(message);
  });

  it('--now sets the analytics now', async () => {
    // At T0 + 250, deal A is open: 150 held at 2.4, cost 225 → unrealized 135; B not yet.
    const run = await cli('wallet', 'indicators', W, '--tape', tape, '--network', 'sol', '--now', String(T0 + 250));
    const map = JSON.parse(run.out).indicators as Record<string, Record<string, { initial: number }>>;
    expect([map.deals_number!.all!.initial, map.pnl_realized!.all!.initial, map.pnl_unrealized!.all!.initial]).toEqual([
      1, 45, 135,
    ]);
  });

  it('--help', async () => {
    const run = await cli('wallet', '--help');
    expect([run.code, run.out]).toEqual([0, `${WALLET_HELP}\n`]);
  });
});

describe('copysim wallets', () => {
  it('prints the wallets list', async () => {
    const run = await cli(
      'wallets',
      '--tape',
      tape,
      '--sort-by',
      'pnl_total:all',
      '--order',
      'asc',
      '--min-deals',
      '1',
    );
    expect(run.code).toBe(0);
    // W: 160 in all; M: A bought 10 @ 0.5, sold @ 3 → +25, B bought 1 @ 3 (open, 0) → 25.
    expect(
      checked(ListWalletsResultSchema, JSON.parse(run.out)).wallets.map((w) => [
        w.address,
        w.indicators.pnl_total.all.initial,
      ]),
    ).toEqual([
      ['Market9999999999999999999999999999999999999', 25],
      [W, 160],
    ]);
  });

  it.each([
    [['--sort-by', 'profit:1m'], 'validation_error'],
    [['--sort-by', 'pnl_total:2w'], 'validation_error'],
    [['--page', 'zero'], 'validation_error'],
    [['--network', 'eth'], 'validation_error'],
  ])('%j prints the 400 body and exits 2', async (args, code) => {
    const run = await cli('wallets', '--tape', tape, ...args);
    expect(run.code).toBe(2);
    expect(JSON.parse(run.out)).toMatchObject({ code });
  });

  it('an unusable tape is exit 1; --help', async () => {
    expect((await cli('wallets', '--tape', broken)).code).toBe(1);
    const help = await cli('wallets', '--help');
    expect([help.code, help.out]).toEqual([0, `${WALLETS_HELP}\n`]);
  });
});
