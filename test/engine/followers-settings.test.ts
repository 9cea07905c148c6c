/**
 * Followers of one walk share what their replays derive from the settings alone (the window,
 * the execution model, the buy sizing) when those settings are equal: a follower that differs
 * from another in any one of them must still get its own `simulate` response.
 */
import { describe, expect, it } from 'vitest';
import { replayFollowers } from '../../src/engine/followers.js';
import { replaySettingsKey } from '../../src/engine/replay.js';
import { indexTape } from '../../src/engine/tape-index.js';
import { resolveEngineOptions } from '../../src/model/options.js';
import { parseSimulatorRequest, type SimulatorRequest, type SimulatorRequestInput } from '../../src/model/request.js';
import { buildResponse } from '../../src/report/response.js';
import { simulate } from '../../src/simulate.js';
import { at, buy, DAY_START, LEADER_A, LEADER_B, request, sell, tape, TOKEN_X, TOKEN_Y } from '../support/scenario.js';

const OPTIONS = { unknown_liquidity_slippage_percent: 1, base_fee_native: { sol: 0.01, eth: 0.01 } };

// Leader A buys X and sells it in two halves, the second the day after; leader B buys and sells Y.
const TAPE = tape([
  buy(LEADER_A, TOKEN_X, DAY_START - 3_600, 100, 2),
  buy(LEADER_A, TOKEN_X, at(60), 1_000, 1),
  buy(LEADER_B, TOKEN_Y, at(120), 50, 4),
  sell(LEADER_A, TOKEN_X, at(600), 500, 3),
  sell(LEADER_B, TOKEN_Y, at(900), 50, 5),
  // The next day: inside a window to 2024-03-11 only.
  sell(LEADER_A, TOKEN_X, DAY_START + 86_400 + 600, 500, 4),
]);

const parsed = (input: SimulatorRequestInput): SimulatorRequest => {
  const result = parseSimulatorRequest(input);
  if (!result.success) throw new Error(JSON.stringify(result.error));
  return result.data;
};

const BASE: SimulatorRequestInput = {
  ...request({ wallets: [LEADER_A, LEADER_B] }),
  buy_percentage: 50,
  max_buy_amount: 400,
  max_position_amount: 900,
};

/** One request a setting, each differing from BASE in that setting only. */
const VARIANTS: [string, Partial<SimulatorRequestInput>][] = [
  ['from_date', { from_date: '2024-03-09' }],
  ['to_date', { to_date: '2024-03-11' }],
  ['priority_fee', { priority_fee: 0.002 }],
  ['bribe', { bribe: 0.001 }],
  ['include_bot_fees', { include_bot_fees: true }],
  ['buy_percentage', { buy_percentage: 20 }],
  ['strategy.fixed_buy_amount', { strategy: { fixed_buy_amount: 75 } }],
  ['max_buy_amount', { max_buy_amount: 150 }],
  ['max_position_amount', { max_position_amount: 300 }],
];

describe('followers of one walk that share settings', () => {
  it.each(VARIANTS)('a follower differing in %s alone gets its own response', (_name, change) => {
    const requests = [parsed(BASE), parsed({ ...BASE, ...change }), parsed({ ...BASE, wallets: [LEADER_B] })];
    expect(replaySettingsKey(requests[1]!)).not.toBe(replaySettingsKey(requests[0]!));
    expect(replaySettingsKey(requests[2]!)).toBe(replaySettingsKey(requests[0]!));
    const expected = requests.map((r) => JSON.stringify(simulate(TAPE, r, OPTIONS)));
    // The changed setting changes the response, so sharing the wrong settings would show.
    expect(expected[1]).not.toBe(expected[0]);
    const indexed = indexTape(TAPE);
    const runs = replayFollowers(indexed, requests, resolveEngineOptions(OPTIONS));
    expect(runs.map((run) => JSON.stringify(buildResponse(run, indexed.tokens)))).toEqual(expected);
  });
});
