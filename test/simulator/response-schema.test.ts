/**
 * The 200 body of the simulator (interface 4.1, 2.7, 2.8) is a contract: every response the
 * engine gives validates against the strict `SimulatorResponseSchema` (all fields, exact types and
 * enums, no extra keys), and the schema rejects a response that breaks it anywhere.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SimulatorResponseSchema, type SimulatorResponse } from '../../src/model/response.js';
import { simulate } from '../../src/simulate.js';
import { MODEL_CASES_DIR, present } from '../support/paths.js';
import { at, buy, END, LEADER_A, run, sell, TOKEN_X, TOKEN_Y, TOKEN_Z } from '../support/scenario.js';

/** Responses that together hold every trade type, special tag and status. */
const scenarios: Record<string, SimulatorResponse> = {
  // X closed by a leader sell (tag null), Y by a mid time-fix, Z by the final time-fix
  'time-fixes': run(
    [
      buy(LEADER_A, TOKEN_X, at(100), 10, 1),
      sell(LEADER_A, TOKEN_X, at(200), 10, 2),
      buy(LEADER_A, TOKEN_Y, at(300), 10, 1),
      buy(LEADER_A, TOKEN_Z, END - 100, 10, 1),
    ],
    { inactivity_time_fix: { hours: 1 }, include_bot_fees: true },
  ),
  'close-all': run([buy(LEADER_A, TOKEN_X, at(100), 10, 1), sell(LEADER_A, TOKEN_X, at(200), 1, 2)], {
    close_all: true,
  }),
  'open-with-liquidity': run(
    [buy(LEADER_A, TOKEN_X, at(100), 10, 1, { usd_liquidity: 100_000 })],
    {},
    {},
    { tokens: { [TOKEN_X]: { name: 'X', symbol: 'X' } } },
  ),
  empty: run([]),
  // Found by the reader fuzz: a sell at 2⁵³ USD a token values the open half of the deal beyond
  // 2⁵³ USD, so the open deals chart holds a whole number past the safe integers.
  'pnl-beyond-2^53': run([
    buy(LEADER_A, TOKEN_X, at(100), 1000, '1.5'),
    sell(LEADER_A, TOKEN_X, at(200), 500, 2 ** 53, { usd_amount: 1000 }),
  ]),
};

it('a deals chart value past 2⁵³ is still a whole number of the schema', () => {
  const value = scenarios['pnl-beyond-2^53']!.cumulative_usd_open_deals_chart.values[0]!;
  expect(value).toBeGreaterThan(Number.MAX_SAFE_INTEGER);
  expect(Number.isInteger(value)).toBe(true);
});

const goldenResponses: [string, SimulatorResponse][] = [];
if (present(MODEL_CASES_DIR)) {
  for (const name of readdirSync(MODEL_CASES_DIR).sort()) {
    const dir = join(MODEL_CASES_DIR, name);
    if (!present(join(dir, 'expected.json'))) continue;
    const expected = JSON.parse(readFileSync(join(dir, 'expected.json'), 'utf8')) as { exit_code: number };
    if (expected.exit_code !== 0) continue;
    const read = (file: string) => JSON.parse(readFileSync(join(dir, file), 'utf8')) as never;
    goldenResponses.push([name, simulate(read('tape.json'), read('request.json'), read('options.json'))]);
  }
} else {
  console.warn(`golden responses skipped in the schema test: ${MODEL_CASES_DIR} is absent on this machine`);
}

describe('every response validates (interface 4.1)', () => {
  it('the scenarios cover every trade type, special tag and status', () => {
    const deals = Object.values(scenarios).flatMap((r) => r.deals);
    expect(new Set(deals.flatMap((d) => d.trades.map((t) => t.type)))).toEqual(
      new Set(['buy', 'sell', 'sell_timefix', 'sell_timefix_final']),
    );
    expect(new Set(deals.map((d) => d.special_tag))).toEqual(
      new Set([null, 'sell_timefix', 'sell_timefix_final', 'close_all']),
    );
    expect(new Set(deals.map((d) => d.status))).toEqual(new Set(['open', 'closed']));
  });

  it.each(Object.entries(scenarios))('scenario %s', (_, response) => {
    expect(SimulatorResponseSchema.safeParse(response).error).toBeUndefined();
  });

  it.skipIf(goldenResponses.length === 0).each(goldenResponses)('golden case %s', (_, response) => {
    expect(SimulatorResponseSchema.safeParse(response).error).toBeUndefined();
  });
});

describe('the schema rejects a broken response', () => {
  const base = scenarios['time-fixes']!;
  // loosely typed on purpose: each case breaks the shape somewhere
  type Body = Record<string, any>;

  it.each<[string, (r: Body) => void]>([
    ['a missing top-level field', (r) => delete r.cumulative_usd_open_deals_chart],
    ['a missing summary field', (r) => delete r.summary.top_deal_dominance],
    ['a missing chart array', (r) => delete r.cumulative_pnl_and_fee_chart.fee_sum],
    ['a missing deal field', (r) => delete r.deals[0].special_tag],
    ['a missing token member', (r) => delete r.deals[0].token.symbol],
    ['a missing trade field', (r) => delete r.deals[0].trades[0].usd_bot_fee],
    ['an extra top-level field', (r) => (r.credits = { spent: 10, remaining: 0 })],
    ['an extra deal field', (r) => (r.deals[0].id = 1)],
    ['an extra trade field', (r) => (r.deals[0].trades[0].is_following = true)],
    ['a wrong deal status', (r) => (r.deals[0].status = 'pending')],
    ['a wrong trade type', (r) => (r.deals[0].trades[0].type = 'sell_all')],
    ['a wrong special_tag', (r) => (r.deals[0].special_tag = 'manual')],
    ['a fractional trades_number', (r) => (r.deals[0].trades_number = 1.5)],
    ['a fractional time', (r) => (r.deals[0].trades[0].time += 0.5)],
    ['a fractional deal index', (r) => (r.cumulative_pnl_and_fee_chart.deal_indexes[0] = 0.5)],
    ['a fractional deals-chart value', (r) => (r.cumulative_usd_closed_deals_chart.values[0] = 1.5)],
    ['a null quantity', (r) => (r.deals[0].trades[0].quantity = null)],
    ['a null summary number', (r) => (r.summary.pnl_total = null)],
    ['a number as a string', (r) => (r.deals[0].pnl_total = '1')],
    ['a null address', (r) => (r.deals[0].token.address = null)],
  ])('%s', (_, breakIt) => {
    const copy = structuredClone(base) as Body;
    breakIt(copy);
    expect(SimulatorResponseSchema.safeParse(copy).success).toBe(false);
  });

  it.each<[string, (r: Body) => void]>([
    ['usd_amount', (r) => (r.deals[0].trades[0].usd_amount = null)],
    ['usd_price', (r) => (r.deals[0].trades[0].usd_price = null)],
    ['usd_liquidity', (r) => (r.deals[0].trades[0].usd_liquidity = null)],
    ['token name and symbol', (r) => Object.assign(r.deals[0].token, { name: null, symbol: null })],
    ['special_tag', (r) => (r.deals[0].special_tag = null)],
  ])('accepts null where the interface allows it: %s', (_, nullIt) => {
    const copy = structuredClone(base) as Body;
    nullIt(copy);
    expect(SimulatorResponseSchema.safeParse(copy).success).toBe(true);
  });
});
