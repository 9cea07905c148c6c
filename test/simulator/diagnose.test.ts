/**
 * Warnings (docs/errors.md): answers that are computed correctly but are probably not what the
 * caller meant. `diagnose(tape, request)` gives them; `copysim simulate` prints them on standard
 * error with its output unchanged, and `--strict` makes them errors (exit 1).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { diagnose, simulate, WarningSchema, type Warning } from '../../src/index.js';
import { convertTapeFile } from '../../src/tape.js';
import { InputError, RequestError } from '../../src/model/errors.js';
import { cli } from '../support/cli.js';
import {
  at,
  buy,
  DAY_START,
  FLAT_OPTIONS,
  LEADER_A,
  LEADER_B,
  MARKET,
  request,
  sell,
  tape,
  TOKEN_X,
} from '../support/scenario.js';

// The pool's liquidity known, so the follower's trades slip by their size (no unknown_liquidity).
const pool = { usd_liquidity: 50_000 };
const swaps = [
  buy(MARKET, TOKEN_X, at(50), 5, 1, pool),
  buy(LEADER_A, TOKEN_X, at(100), 1000, 1, pool),
  sell(LEADER_A, TOKEN_X, at(200), 500, 2, pool),
];
const codes = (warnings: Warning[]): string[] => warnings.map((w) => w.code);

describe('diagnose', () => {
  it('says nothing of a run that copies the followed wallet', () => {
    expect(diagnose(tape(swaps), request())).toEqual([]);
  });

  it('an empty tape: one warning, nothing else', () => {
    const warnings = diagnose(tape([]), request());
    expect(warnings).toEqual([
      {
        code: 'empty_tape',
        message:
          'the tape holds no swap, so every figure is zero: check the file (a JSONL tape has its header on line 1 and one swap a line after it)',
      },
    ]);
    expect(warnings.every((w) => WarningSchema.safeParse(w).success)).toBe(true);
  });

  it('a followed wallet with no swap in the tape (a typo) is named with its index', () => {
    const typo = LEADER_A.replace('A1', 'A2');
    expect(diagnose(tape(swaps), request({ wallets: [LEADER_A, typo] }))).toEqual([
      {
        code: 'wallet_not_in_tape',
        message: `wallets[1] "${typo}" has no swap in the tape: check the address`,
        wallets: [typo],
      },
    ]);
  });

  it("on sol, a wallet that differs only in letter case points at the tape's spelling", () => {
    const lower = LEADER_A.toLowerCase();
    const [warning] = diagnose(tape(swaps), request({ wallets: [lower] }));
    expect(warning!.message).toBe(
      `wallets[0] "${lower}" (the tape has "${LEADER_A}": sol addresses are case-sensitive) has no swap in the tape: check the address`,
    );
  });

  it('on eth, letter case does not count: no warning', () => {
    const eth = `0x${'ab'.repeat(20)}`;
    const ethSwaps = [buy(eth, TOKEN_X, at(100), 1000, 1, pool), sell(eth, TOKEN_X, at(200), 500, 2, pool)];
    expect(
      diagnose(
        tape(ethSwaps, { network: 'eth' }),
        request({ network: 'eth', wallets: [eth.toUpperCase().replace('0X', '0x')] }),
      ),
    ).toEqual([]);
  });

  it('a wallet with swaps only outside the window, the window inside the tape', () => {
    // LEADER_B trades the day before the window (DAY_START - 3600); the tape runs from that day to the window's.
    const early = [...swaps, buy(LEADER_B, TOKEN_X, DAY_START - 3600, 10, 1)];
    expect(diagnose(tape(early), request({ wallets: [LEADER_A, LEADER_B] }))).toEqual([
      {
        code: 'wallet_not_in_window',
        message: `wallets[1] "${LEADER_B}" (1 swap, 2024-03-09 to 2024-03-09) has no swap in the window 2024-03-10 to 2024-03-10: widen the window or check the dates`,
        wallets: [LEADER_B],
      },
    ]);
  });

  it('a window that does not overlap the tape (from_date a year early): one warning, not one a wallet', () => {
    const warnings = diagnose(tape(swaps), request({ from_date: '2023-03-10', to_date: '2023-03-11' }));
    expect(warnings).toEqual([
      {
        code: 'window_outside_tape',
        message:
          "the window 2023-03-10 to 2023-03-11 (from_date to to_date) does not overlap the tape, whose swaps run from 2024-03-10 to 2024-03-10: set the dates within the tape's days",
      },
    ]);
  });

  it('no follower trade: the reasons the skip log gives, counted', () => {
    // The leader only sells in the window (its buy came the day before): each sell finds no open deal.
    const sellsOnly = [
      buy(LEADER_A, TOKEN_X, DAY_START - 60, 1000, 1),
      sell(LEADER_A, TOKEN_X, at(100), 400, 2),
      sell(LEADER_A, TOKEN_X, at(200), 400, 2),
    ];
    const response = simulate(tape(sellsOnly), request(), FLAT_OPTIONS);
    expect(response.deals).toEqual([]);
    const expected: Warning = {
      code: 'no_follower_trade',
      message:
        'no follower trade: the 2 swaps of the followed wallets in the window were not copied: 2 no_open_deal ' +
        '(a sell of a token the follower has no open deal in: bought before the window, or already sold)',
    };
    expect(diagnose(tape(sellsOnly), request(), { options: FLAT_OPTIONS })).toEqual([expected]);
    // Given the response (without a skip log), the same warning: a replay with the skip log finds the reasons.
    expect(diagnose(tape(sellsOnly), request(), { response, options: FLAT_OPTIONS })).toEqual([expected]);
  });

  it('no follower trade under a strategy filter: its reason', () => {
    const strategy = { min_leader_buy_usd: 5000 }; // the leader's buy is 1000 × 1 = 1000 USD
    const [warning] = diagnose(tape(swaps), request({ strategy }), { options: FLAT_OPTIONS });
    expect(warning!.code).toBe('no_follower_trade');
    expect(warning!.message).toContain(
      '1 leader_buy_too_small (a leader buy below strategy.min_leader_buy_usd); 1 no_open_deal',
    );
  });

  it('throws as simulate does for a bad request or another network', () => {
    expect(() => diagnose(tape(swaps), request({ from_date: 'yesterday' }))).toThrow(RequestError);
    expect(() => diagnose(tape(swaps), request({ network: 'eth' }))).toThrow(InputError);
  });

  it('gives several warnings together, in a fixed order', () => {
    const typo = 'NoSuchWallet111111111111111111111111111111';
    const early = [...swaps, buy(LEADER_B, TOKEN_X, DAY_START - 3600, 10, 1)];
    expect(codes(diagnose(tape(early), request({ wallets: [typo, LEADER_B] })))).toEqual([
      'wallet_not_in_tape',
      'wallet_not_in_window',
    ]);
  });

  it('lists five wallets and counts the rest', () => {
    const wallets = Array.from({ length: 7 }, (_, i) => `Missing${i}111111111111111111111111111111111`);
    const [warning] = diagnose(tape(swaps), request({ wallets: [LEADER_A, ...wallets] }));
    expect(warning!.wallets).toEqual(wallets);
    expect(warning!.message).toMatch(
      /wallets\[5\] "Missing4\w+" and 2 more have no swap in the tape: check the addresses$/,
    );
  });
});

const dir = mkdtempSync(join(tmpdir(), 'copysim-diagnose-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
function file(name: string, content: unknown): string {
  const path = join(dir, name);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
}

describe('copysim simulate: warnings on standard error, --strict', () => {
  const goodTape = file('tape.json', tape(swaps));
  const typoRequest = file('typo.json', request({ wallets: ['NoSuchWallet111111111111111111111111111111'] }));
  const expected = `${JSON.stringify(simulate(tape(swaps), request({ wallets: ['NoSuchWallet111111111111111111111111111111'] })))}\n`;

  it('prints the warning and the unchanged response, exit 0', async () => {
    const { code, out, err } = await cli('simulate', '--tape', goodTape, '--request', typoRequest);
    expect(code).toBe(0);
    expect(out).toBe(expected);
    expect(err).toBe(
      'copysim simulate: warning: wallets[0] "NoSuchWallet111111111111111111111111111111" has no swap in the tape: check the address\n',
    );
  });

  it('--strict: the warning is an error, exit 1, nothing on standard output', async () => {
    const { code, out, err } = await cli('simulate', '--tape', goodTape, '--request', typoRequest, '--strict');
    expect(code).toBe(1);
    expect(out).toBe('');
    expect(err).toMatch(/^copysim simulate: error: wallets\[0\] "NoSuchWallet1+" has no swap in the tape/);
  });

  it('--strict without warnings: the response, exit 0', async () => {
    const { code, err } = await cli(
      'simulate',
      '--tape',
      goodTape,
      '--request',
      file('ok.json', request()),
      '--strict',
    );
    expect([code, err]).toEqual([0, '']);
  });

  it('a JSONL tape with its header and no swap: empty_tape, and the same with a swap streamed', async () => {
    const header = JSON.stringify({ network: 'sol', native_prices: [[DAY_START, 100]] });
    const empty = await cli(
      'simulate',
      '--tape',
      file('empty.jsonl', `${header}\n`),
      '--request',
      file('r.json', request()),
    );
    expect(empty.code).toBe(0);
    expect(empty.err).toBe(
      'copysim simulate: warning: the tape holds no swap, so every figure is zero: check the file (a JSONL tape has its header on line 1 and one swap a line after it)\n',
    );
    const strict = await cli(
      'simulate',
      '--tape',
      file('empty2.jsonl', `${header}\n`),
      '--request',
      file('r.json', request()),
      '--strict',
    );
    expect(strict.code).toBe(1);
  });

  it('a JSONL tape streamed: the window and no-trade warnings as for the JSON tape', async () => {
    const header = JSON.stringify({ network: 'sol', native_prices: [[DAY_START, 100]] });
    const sellsOnly = [buy(LEADER_A, TOKEN_X, DAY_START - 60, 1000, 1), sell(LEADER_A, TOKEN_X, at(100), 400, 2)];
    const path = file('sells.jsonl', [header, ...sellsOnly.map((s) => JSON.stringify(s))].join('\n'));
    const { code, err } = await cli('simulate', '--tape', path, '--request', file('r.json', request()));
    expect(code).toBe(0);
    expect(err).toBe(
      'copysim simulate: warning: no follower trade: the 1 swap of the followed wallets in the window was not copied: 1 no_open_deal ' +
        '(a sell of a token the follower has no open deal in: bought before the window, or already sold)\n',
    );
    // Trades streamed into pools of unknown liquidity: warned as from a JSON tape (the price
    // check needs the tape in memory, and is not made).
    const copied = [buy(LEADER_A, TOKEN_X, at(100), 1000, 1), sell(LEADER_A, TOKEN_X, at(200), 400, 2)];
    const traded = file('traded.jsonl', [header, ...copied.map((s) => JSON.stringify(s))].join('\n'));
    const blind = await cli('simulate', '--tape', traded, '--request', file('r3.json', request()));
    expect(blind.err).toMatch(
      /^copysim simulate: warning: 2 of the 2 follower trades went into pools of unknown liquidity .* largest 1000 USD/,
    );
    const outside = await cli(
      'simulate',
      '--tape',
      path,
      '--request',
      file('r2.json', request({ from_date: '2025-01-01', to_date: '2025-01-01' })),
    );
    expect(outside.err).toMatch(
      /^copysim simulate: warning: the window 2025-01-01 to 2025-01-01 \(from_date to to_date\) does not overlap the tape, whose swaps run from 2024-03-09 to 2024-03-10/,
    );
  });
});

describe('a Parquet tape streamed: the warnings of its JSON form', () => {
  it('names a followed wallet with no swap, and one with none in the window while the market trades in it', async () => {
    const typo = 'NoSuchWallet111111111111111111111111111111';
    const swapsOfTape = [
      buy(LEADER_A, TOKEN_X, DAY_START - 120, 1000, 1),
      sell(LEADER_A, TOKEN_X, DAY_START - 60, 400, 2),
      buy(MARKET, TOKEN_X, at(10), 500, 1),
      sell(MARKET, TOKEN_X, at(200), 100, 2),
    ];
    const json = file('facts.json', tape(swapsOfTape));
    const parquet = join(dir, 'facts.parquet');
    convertTapeFile(json, parquet);
    const req = file('facts-r.json', request({ wallets: [LEADER_A, typo] }));
    const fromJson = await cli('simulate', '--tape', json, '--request', req);
    const fromParquet = await cli('simulate', '--tape', parquet, '--request', req);
    expect(fromJson.code).toBe(0);
    expect(fromJson.err).toMatch(/wallets\[1\] "NoSuchWallet1+" has no swap in the tape/);
    expect(fromJson.err).toMatch(/wallets\[0\] "\w+" \(2 swaps, [-0-9]+ to [-0-9]+\) has no swap in the window/);
    expect(fromParquet.err).toBe(fromJson.err);
    expect(fromParquet.out).toBe(fromJson.out);
  });
});

describe('copysim latency: the same warnings on standard error', () => {
  it('names a followed wallet with no swap, the table unchanged on standard output', async () => {
    const goodTape = file('latency-tape.json', tape(swaps));
    const typo = 'NoSuchWallet111111111111111111111111111111';
    const { code, out, err } = await cli(
      'latency',
      '--tape',
      goodTape,
      '--request',
      file('latency-typo.json', request({ wallets: [LEADER_A, typo] })),
    );
    expect(code).toBe(0);
    expect(out).toMatch(/^delay \(s\)/);
    expect(err).toBe(`copysim latency: warning: wallets[1] "${typo}" has no swap in the tape: check the address\n`);
  });
});

describe("warnings about the follower's own trades", () => {
  // The market trades TOKEN_X at 1 USD every 10 s from at(0) to at(400); a dust sell at 0.01 USD
  // at at(103) is a junk print. The leader buys at at(100) and sells at at(300); copied 5 s late,
  // the buy fires at at(105), where the known price is the junk print's.
  // No liquidity and the flat options: a fill is at the known price exactly.
  const market = Array.from({ length: 41 }, (_, k) => buy(MARKET, TOKEN_X, at(10 * k), 5, 1));
  const JUNK = 'Junk1111111111111111111111111111111111111111';
  const junk = sell(JUNK, TOKEN_X, at(103), 0.01, 0.01, { usd_amount: 0.0001 });
  const leader = [buy(LEADER_A, TOKEN_X, at(100), 1000, 1), sell(LEADER_A, TOKEN_X, at(300), 1000, 1)];
  const junkTape = tape([...market, ...leader, junk]);
  const junkIndex = market.length + leader.length; // its place in the tape's swaps
  const late = request({ strategy: { copy_delay_seconds: 5 } });

  it('a fill at a junk print: named with its swap, and gone once min_price_swap_usd ignores the print', () => {
    const response = simulate(junkTape, late, FLAT_OPTIONS);
    expect(response.deals[0]!.trades[0]!.usd_price).toBe(0.01);
    const warnings = diagnose(junkTape, late, { response, options: FLAT_OPTIONS });
    // The buy's neighbours: the 10 swaps at or before at(105) (market at 40 … 100, the leader's
    // buy, the print) and the 10 after (market at 110 … 200): 19 at 1 USD and the print, so the
    // median is 1 and the fill 1 / 0.01 = 100 times below it. The sell at at(305) fills at 1.
    expect(warnings).toEqual([
      {
        code: 'price_far_from_market',
        message:
          '1 follower trade was filled at a price 10× or more away from the median ' +
          "of the token's 10 swaps before and after: " +
          `deals[0] (${TOKEN_X}) buy at 2024-03-10T00:01:45Z filled at 0.01 USD, ` +
          '100× below the median 1 of 20 swaps; ' +
          `priced from swaps[${junkIndex}] (sell by ${JUNK} at 2024-03-10T00:01:43Z, 0.0001 USD at 0.01). ` +
          'A junk print (a dust swap at a broken price) decides such a result: check those swaps, ' +
          'or set the engine option min_price_swap_usd so that swaps that small set no price',
        swaps: [junkIndex],
      },
    ]);
    expect(WarningSchema.safeParse(warnings[0]).success).toBe(true);
    const ignored = { ...FLAT_OPTIONS, min_price_swap_usd: 0.01 };
    expect(simulate(junkTape, late, ignored).deals[0]!.trades[0]!.usd_price).toBe(1);
    expect(diagnose(junkTape, late, { options: ignored })).toEqual([]);
  });

  it('on eth, a deal that spells its token in another case is checked against the same market', () => {
    // The market and the print spell the token in lower case; the leader, whose buy opens the deal, in upper case.
    const lower = (s: (typeof market)[number]) => ({ ...s, token: s.token.toLowerCase() });
    const upper = (s: (typeof market)[number]) => ({ ...s, token: s.token.toUpperCase() });
    const ethTape = tape([...market.map(lower), ...leader.map(upper), lower(junk)], { network: 'eth' });
    const ethLate = request({ network: 'eth', strategy: { copy_delay_seconds: 5 } });
    const response = simulate(ethTape, ethLate, FLAT_OPTIONS);
    expect(response.deals[0]!.token.address).toBe(TOKEN_X.toUpperCase());
    expect(codes(diagnose(ethTape, ethLate, { response, options: FLAT_OPTIONS }))).toEqual(['price_far_from_market']);
  });

  it('a fill at the market price beside a junk print is not far: the median decides, not the extremes', () => {
    // Copied at once, the buy fills at at(100) at 1 USD; its 20 neighbours hold the print at
    // 0.01 (100 times below the fill), and their median is 1.
    const response = simulate(junkTape, request(), FLAT_OPTIONS);
    expect(response.deals[0]!.trades.map((t) => t.usd_price)).toEqual([1, 1]);
    expect(codes(diagnose(junkTape, request(), { response, options: FLAT_OPTIONS }))).toEqual([]);
  });

  it('a fill 9.99 times from the median is not far; 10 times is', () => {
    const near = (price: number) => tape([...market, ...leader, { ...junk, usd_price: price }]);
    expect(codes(diagnose(near(1 / 9.99), late, { options: FLAT_OPTIONS }))).toEqual([]);
    expect(codes(diagnose(near(0.1), late, { options: FLAT_OPTIONS }))).toEqual(['price_far_from_market']);
    expect(codes(diagnose(near(10), late, { options: FLAT_OPTIONS }))).toEqual(['price_far_from_market']);
  });

  it('trades into pools of unknown liquidity, when no engine option says how they slip', () => {
    const blind = [
      buy(MARKET, TOKEN_X, at(50), 5, 1),
      buy(LEADER_A, TOKEN_X, at(100), 1000, 1),
      sell(LEADER_A, TOKEN_X, at(200), 500, 2),
    ];
    // The copy buys 1000 USD and sells half its tokens; neither pool's liquidity is known.
    expect(diagnose(tape(blind), request())).toEqual([
      {
        code: 'unknown_liquidity',
        message:
          '2 of the 2 follower trades went into pools of unknown liquidity (the tape gives no usd_liquidity), ' +
          'the largest 1000 USD: each slipped the default flat 1 %, whatever its size. ' +
          'Set the engine option assumed_liquidity_usd so that a larger trade ' +
          'slips more, or unknown_liquidity_slippage_percent to say which flat percent is meant',
      },
    ]);
    expect(diagnose(tape(blind), request(), { options: { assumed_liquidity_usd: 100_000 } })).toEqual([]);
    expect(diagnose(tape(blind), request(), { options: { unknown_liquidity_slippage_percent: 1 } })).toEqual([]);
  });
});
