/**
 * A copy refused by a check that needs neither a price nor a size (a buy at the dupe limit, a
 * sell with no open deal or no lot of the leader's) reads no price and no liquidity from the
 * price book: on a busy leader's tape most swaps are refused so, and their decimals would be made
 * for nothing. The skip log still names each refusal.
 */
import { describe, expect, it } from 'vitest';
import { KnownPrices } from '../../src/engine/known-prices.js';
import { NativePriceSeries } from '../../src/engine/native-prices.js';
import { Replay } from '../../src/engine/replay.js';
import type { Swap } from '../../src/model/tape.js';
import { prepare } from '../../src/simulate.js';
import {
  at,
  buy,
  FLAT_NATIVE,
  FLAT_OPTIONS,
  LEADER_A,
  LEADER_B,
  request,
  sell,
  TOKEN_X,
  TOKEN_Y,
} from '../support/scenario.js';

/** A price book that counts the decimals a replay asks of it. */
class CountingPrices extends KnownPrices {
  asked = 0;

  override priceOf(tokenId: number) {
    this.asked++;
    return super.priceOf(tokenId);
  }

  override liquidityOf(tokenId: number) {
    this.asked++;
    return super.liquidityOf(tokenId);
  }
}

function replay(swaps: Swap[], overrides: Parameters<typeof request>[0]) {
  const { parsed, engineOptions } = prepare(
    request({ wallets: [LEADER_A, LEADER_B], strategy: { report_skipped: true }, ...overrides }),
    FLAT_OPTIONS,
  );
  const prices = new CountingPrices();
  const run = new Replay({
    network: 'sol',
    native: new NativePriceSeries(FLAT_NATIVE),
    request: parsed,
    options: engineOptions,
    prices,
  });
  const tokens = [TOKEN_X, TOKEN_Y];
  const asked: number[] = [];
  for (const swap of swaps) {
    const before = prices.asked;
    run.step(swap, tokens.indexOf(swap.token), swap.wallet === LEADER_A ? 0 : 1);
    asked.push(prices.asked - before);
  }
  return { asked, skipped: (run.finish().skipped ?? []).map((s) => s.reason) };
}

describe('a copy refused before its price is read', () => {
  it('reads no price for a buy at the dupe limit, a sell with no deal, a sell with no lot', () => {
    const swaps = [
      buy(LEADER_A, TOKEN_X, at(0), 10, 2), // copied: the deal of X opens
      buy(LEADER_A, TOKEN_X, at(1), 10, 2), // max_dupe_buy_times 0: refused, dupe_limit
      sell(LEADER_A, TOKEN_Y, at(2), 5, 2), // no deal of Y: refused, no_open_deal
      sell(LEADER_B, TOKEN_X, at(3), 5, 2), // the deal of X holds no lot of B's: refused, no_lot
      sell(LEADER_A, TOKEN_X, at(4), 5, 2), // copied: half of A's lot
    ] as Swap[];
    const { asked, skipped } = replay(swaps, { max_dupe_buy_times: 0 });
    // A copied trade asks for the price and the liquidity at least; a refused copy for nothing.
    expect(asked.map((n) => (n >= 2 ? 'asked' : n))).toEqual(['asked', 0, 0, 0, 'asked']);
    expect(skipped).toEqual(['dupe_limit', 'no_open_deal', 'no_lot']);
  });

  it('with close_all a sell of a deal without a lot of the leader is copied, and reads its price', () => {
    const swaps = [buy(LEADER_A, TOKEN_X, at(0), 10, 2), sell(LEADER_B, TOKEN_X, at(1), 5, 2)] as Swap[];
    const { asked, skipped } = replay(swaps, { close_all: true });
    expect(asked.map((n) => (n >= 2 ? 'asked' : n))).toEqual(['asked', 'asked']);
    expect(skipped).toEqual([]);
  });
});
