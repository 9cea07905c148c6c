/**
 * The latency curve (`latencyCurve`, `copysim latency`): one request at several copy delays over
 * one tape, and the share of the zero-delay PnL a copier keeps.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { InputError, latencyCurve, RequestError, simulate } from '../../src/index.js';
import { cli } from '../support/cli.js';
import { PROJECT_ROOT } from '../support/paths.js';
import { at, buy, FLAT_OPTIONS, LEADER_A, MARKET, near, request, sell, tape, TOKEN_X } from '../support/scenario.js';

const scratch = mkdtempSync(join(tmpdir(), 'copysim-latency-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const EXAMPLE = join(PROJECT_ROOT, 'fixtures', 'example');

// The leader buys 100 tokens at 1 at 100 s; the market moves the price to 1.5 at 101 s and to 2 at
// 105 s; the leader sells everything at 3 at 1,000 s. No slippage, 1 USD of network fee a trade.
const swaps = [
  buy(LEADER_A, TOKEN_X, at(100), 100, 1),
  buy(MARKET, TOKEN_X, at(101), 1, 1.5),
  buy(MARKET, TOKEN_X, at(105), 1, 2),
  sell(LEADER_A, TOKEN_X, at(1000), 100, 3),
];

describe('latencyCurve', () => {
  it('gives each delay its PnL and the share of the zero-delay PnL kept (hand-computed)', () => {
    const curve = latencyCurve(tape(swaps), request(), { delays: [0, 1, 5, 10], options: FLAT_OPTIONS });
    // delay 0: buys 100 USD at 1 = 100 tokens, sells them at 3 = 300 USD: 300 − 100 − 2 fees = 198
    // delay 1: due at 101 s, it fires before the swap of that second is recorded: still at 1, 198
    // delay 5: due at 105 s, at the 1.5 of 101 s: 66.67 tokens, sold at 1,005 s at 3 = 200 USD: 98
    // delay 10: at the 2 of 105 s: 50 tokens, sold for 150 USD: 150 − 100 − 2 = 48
    expect(curve.points.map((p) => p.delay_seconds)).toEqual([0, 1, 5, 10]);
    near(curve.zero_delay_pnl, 198, 'zero-delay pnl');
    near(curve.points[1]!.pnl_total, 198, 'delay 1 pnl');
    near(curve.points[2]!.pnl_total, 98, 'delay 5 pnl');
    near(curve.points[3]!.pnl_total, 48, 'delay 10 pnl');
    near(curve.points[2]!.pnl_kept!, 98 / 198, 'delay 5 kept');
    near(curve.points[3]!.roi_total, 48, 'delay 10 roi: 48 / 100 invested');
    expect(curve.points.map((p) => [p.trades, p.deals])).toEqual([
      [2, 1],
      [2, 1],
      [2, 1],
      [2, 1],
    ]);
    // 98 / 198 = 0.495 ≤ 0.5: half of the PnL is gone at 5 s
    expect(curve.half_pnl_gone_at).toBe(5);
  });

  it('says none when half is never gone, and gives no share when there was no profit to keep', () => {
    expect(latencyCurve(tape(swaps), request(), { delays: [0], options: FLAT_OPTIONS }).half_pnl_gone_at).toBeNull();
    const losing = [buy(LEADER_A, TOKEN_X, at(100), 100, 1), sell(LEADER_A, TOKEN_X, at(1000), 100, 0.5)];
    const curve = latencyCurve(tape(losing), request(), { delays: [0, 5], options: FLAT_OPTIONS });
    expect(curve.points.map((p) => p.pnl_kept)).toEqual([null, null]);
    expect(curve.half_pnl_gone_at).toBeNull();
  });

  it("keeps the request's own strategy and varies only the delay", () => {
    const withExit = request({ strategy: { stop_loss_percent: 20 } });
    const curve = latencyCurve(tape(swaps), withExit, { delays: [5], options: FLAT_OPTIONS });
    const direct = simulate(
      tape(swaps),
      request({ strategy: { stop_loss_percent: 20, copy_delay_seconds: 5 } }),
      FLAT_OPTIONS,
    );
    expect(curve.points[0]!.pnl_total).toBe(direct.summary.pnl_total);
  });

  it("with the copier's wallet: each point's copier is simulate's; a late copy fails (hand-computed)", () => {
    // Tolerance 10 %: a copy quoted at the leader's 1.00 fills at most at 1.10. Delay 1: at 1.00,
    // lands (198). Delay 5: at the 1.5 of 101 s > 1.10: fails, 1 USD fee (0.01 native × 100), no
    // deal; the sell finds none (PnL 0). Delay 10: at the 2 of 105 s: fails alike.
    const tight = request({ strategy: { slippage_tolerance_percent: 10 } });
    const curve = latencyCurve(tape(swaps), tight, { delays: [1, 5, 10], options: FLAT_OPTIONS });
    expect(curve.points.map((p) => p.pnl_total)).toEqual([198, 0, 0]);
    expect(curve.points.map((p) => p.copier!.failed_transactions)).toEqual([0, 1, 1]);
    expect(curve.points.map((p) => p.copier!.failed_transaction_fees)).toEqual([0, 1, 1]);
    expect(curve.half_pnl_gone_at).toBe(5);
    for (const point of curve.points) {
      const direct = simulate(
        tape(swaps),
        request({ strategy: { slippage_tolerance_percent: 10, copy_delay_seconds: point.delay_seconds } }),
        FLAT_OPTIONS,
      );
      expect(point.copier).toEqual(direct.copier);
      expect(point.pnl_total).toBe(direct.summary.pnl_total);
    }
    // Without a member of the copier's wallet, a point has no copier.
    expect(
      Object.keys(latencyCurve(tape(swaps), request(), { delays: [0], options: FLAT_OPTIONS }).points[0]!),
    ).not.toContain('copier');
  });

  it('refuses a bad request with its 400 body and bad delays with a message', () => {
    expect(() => latencyCurve(tape(swaps), request({ buy_percentage: 0 }))).toThrow(RequestError);
    expect(() => latencyCurve(tape(swaps), request(), { delays: [] })).toThrow(
      new InputError('no delays given: name at least one, e.g. 0,5,30', { source: 'delays' }),
    );
    expect(() => latencyCurve(tape(swaps), request(), { delays: [1.5] })).toThrow(
      /delay 1 \(1.5\) must be whole seconds from 0 to 86400/,
    );
  });
});

describe('copysim latency', () => {
  it("prints its table on the bundled example: a row per default delay, the copier's columns, then the verdict", async () => {
    const { code, out, err } = await cli(
      'latency',
      '--tape',
      join(EXAMPLE, 'tape-sol.json'),
      '--request',
      join(EXAMPLE, 'request-sol.json'),
    );
    expect(err).toBe('');
    expect(code).toBe(0);
    const lines = out.trimEnd().split('\n');
    // the sol example's request sets the copier's wallet: its failures, sandwiches and cash skips follow
    expect(lines[0]).toMatch(
      /^delay \(s\)\s+pnl_total\s+roi_total %\s+trades\s+deals\s+PnL kept\s+failed\s+failed fees\s+sandwiched\s+sandwich loss\s+cash skips$/,
    );
    expect(lines.slice(2, 10).map((l) => Number(l.split(/\s+/)[0]))).toEqual([0, 1, 2, 5, 10, 30, 60, 120]);
    expect(lines[11]).toMatch(
      /^Half of the zero-delay PnL \([\d,.]+\) is (still kept at every delay tried|gone at a delay of \d+ s)\.$/,
    );
  });

  it('--json prints an array, one object a delay with delay_seconds first, as simulate gives them', async () => {
    const { code, out } = await cli(
      'latency',
      '--tape',
      join(EXAMPLE, 'tape-eth.json'),
      '--request',
      join(EXAMPLE, 'request-eth.json'),
      '--delays',
      '0,60',
      '--json',
    );
    expect(code).toBe(0);
    const points = JSON.parse(out) as Record<string, number>[];
    expect(points.map((p) => Object.keys(p)[0])).toEqual(['delay_seconds', 'delay_seconds']);
    expect(Object.keys(points[0]!)).toEqual(['delay_seconds', 'pnl_total', 'roi_total', 'trades', 'deals', 'pnl_kept']);
    const { readFileSync } = await import('node:fs');
    const req = JSON.parse(readFileSync(join(EXAMPLE, 'request-eth.json'), 'utf8')) as object;
    const direct = simulate(JSON.parse(readFileSync(join(EXAMPLE, 'tape-eth.json'), 'utf8')), {
      ...req,
      strategy: { copy_delay_seconds: 60 },
    });
    expect(points[1]!.pnl_total).toBe(direct.summary.pnl_total);
    expect(points[1]!.trades).toBe(direct.deals.reduce((n, d) => n + d.trades_number, 0));
  });

  it("with the copier's wallet, the table shows the failures, sandwiches and cash skips of each delay", async () => {
    const tapeFile = join(scratch, 'tape.json');
    writeFileSync(tapeFile, JSON.stringify(tape(swaps)));
    const requestFile = join(scratch, 'tight.json');
    writeFileSync(requestFile, JSON.stringify(request({ strategy: { slippage_tolerance_percent: 10 } })));
    const optionsFile = join(scratch, 'options.json');
    writeFileSync(optionsFile, JSON.stringify(FLAT_OPTIONS));
    const { code, out } = await cli(
      'latency',
      '--tape',
      tapeFile,
      '--request',
      requestFile,
      '--options',
      optionsFile,
      '--delays',
      '1,5',
    );
    expect(code).toBe(0);
    const lines = out.split('\n');
    const columns = ['delay (s)', 'pnl_total', 'roi_total %', 'trades', 'deals', 'PnL kept'];
    const copierColumns = ['failed', 'failed fees', 'sandwiched', 'sandwich loss', 'cash skips'];
    expect(lines[0]!.trim().split(/\s{2,}/)).toEqual([...columns, ...copierColumns]);
    // delay 5: one failed attempt of 1 USD, no sandwich, no cash skip
    expect(
      lines[3]!
        .trim()
        .split(/\s{2,}/)
        .slice(-5),
    ).toEqual(['1', '1.00', '0', '0.00', '0']);
    const json = await cli(
      'latency',
      '--tape',
      tapeFile,
      '--request',
      requestFile,
      '--options',
      optionsFile,
      '--delays',
      '1,5',
      '--json',
    );
    const points = JSON.parse(json.out) as { copier: { failed_transactions: number } }[];
    expect(points.map((p) => p.copier.failed_transactions)).toEqual([0, 1]);
  });

  it("names a bad --delays list, and prints a bad request's 400 body with exit 2", async () => {
    const bad = await cli(
      'latency',
      '--tape',
      join(EXAMPLE, 'tape-sol.json'),
      '--request',
      join(EXAMPLE, 'request-sol.json'),
      '--delays',
      '0,five',
    );
    expect(bad.code).toBe(1);
    expect(bad.err).toMatch(/--delays takes whole seconds from 0 to 86400, comma-separated; "five" is not one/);
    const file = join(scratch, 'bad-request.json');
    writeFileSync(file, JSON.stringify({ ...request(), network: 'sol', closeAll: true }));
    const refused = await cli('latency', '--tape', join(EXAMPLE, 'tape-sol.json'), '--request', file);
    expect(refused.code).toBe(2);
    expect(JSON.parse(refused.out)).toEqual({
      code: 'validation_error',
      detail: [{ path: 'closeAll', message: 'unknown member "closeAll": did you mean "close_all"?' }],
    });
  });
});
