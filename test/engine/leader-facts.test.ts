/**
 * The leader facts (src/engine/leader-facts.ts): the holdings before each swap of a pair (model
 * section 2: sells floor at 0), a sell's fraction of the holdings (3.2) and the swap's USD amount
 * (3.1). A tape's first facts, and facts made not to keep, keep no decimal by swap, only each
 * pair's latest holdings; the facts after them keep every value in the tape's memo. The facts
 * of a stream keep the latest holdings by token and leader. All give the same values,
 * hand-computed here.
 */
import { describe, expect, it } from 'vitest';
import { IndexedLeaderFacts, StreamLeaderFacts } from '../../src/engine/leader-facts.js';
import { indexTape, type IndexedTape } from '../../src/engine/tape-index.js';
import { tapeMemo } from '../../src/engine/tape-memo.js';
import { at, buy, LEADER_A, LEADER_B, sell, tape, TOKEN_X, TOKEN_Y } from '../support/scenario.js';

// Leader A in X: buys 10 and 5, sells 3 (a fifth of 15), sells 20 (more than the 12 held: all, floored at 0),
// buys 4 again. Leader B's buy of Y in between is a pair of its own.
const SWAPS = [
  buy(LEADER_A, TOKEN_X, at(0), 10, 2),
  buy(LEADER_A, TOKEN_X, at(1), 5, 2, { usd_amount: 11 }),
  buy(LEADER_B, TOKEN_Y, at(2), 7, 1),
  sell(LEADER_A, TOKEN_X, at(3), 3, 4),
  sell(LEADER_A, TOKEN_X, at(4), 20, 4),
  buy(LEADER_A, TOKEN_X, at(5), 4, 3),
];
const HOLDINGS_BEFORE = ['0', '10', '0', '15', '12', '0'];
// The sells' fractions: 3 / 15, and null for the one of everything held.
const FRACTIONS: (string | null)[] = [null, null, null, '0.2', null, null];
// usd_amount when given, else quantity × usd_price.
const USD_AMOUNTS = ['20', '11', '7', '12', '80', '12'];

/** Asks `facts` what a replay asks, in event order; gives the holdings, fractions and amounts as text. */
function ask(indexed: IndexedTape, facts: IndexedLeaderFacts | StreamLeaderFacts): string[][] {
  const holdings: string[] = [];
  const fractions: (string | null)[] = [];
  const amounts: string[] = [];
  for (const i of indexed.order) {
    const swap = indexed.swaps[i]!;
    facts.moveHoldings(swap, i, indexed.tokenOf[i]!, indexed.walletOf[i]!);
    const held = facts.heldBefore();
    holdings[i] = held.toString();
    fractions[i] = swap.type === 'sell' ? (facts.sellFraction(swap, i, held)?.toString() ?? null) : null;
    amounts[i] = facts.usdAmount(swap, i).toString();
  }
  return [holdings, fractions as string[], amounts];
}

describe('leader facts of an indexed tape', () => {
  it("a tape's first facts give the model's values and keep nothing by swap in the memo", () => {
    const indexed = indexTape(tape(SWAPS));
    expect(ask(indexed, new IndexedLeaderFacts(indexed))).toEqual([HOLDINGS_BEFORE, FRACTIONS, USD_AMOUNTS]);
    const memo = tapeMemo(indexed);
    expect(memo.holdingsBefore.filter((h) => h !== undefined)).toEqual([]);
    expect(memo.sellFraction.filter((f) => f !== undefined)).toEqual([]);
    expect(memo.usdAmount.filter((a) => a !== undefined)).toEqual([]);
  });

  it('the facts after them give the same values and keep them with the tape', () => {
    const indexed = indexTape(tape(SWAPS));
    ask(indexed, new IndexedLeaderFacts(indexed));
    expect(ask(indexed, new IndexedLeaderFacts(indexed))).toEqual([HOLDINGS_BEFORE, FRACTIONS, USD_AMOUNTS]);
    const memo = tapeMemo(indexed);
    expect(memo.holdingsBefore.map(String)).toEqual(HOLDINGS_BEFORE);
    expect(memo.usdAmount.map(String)).toEqual(USD_AMOUNTS);
    // A third reads them back from the memo.
    expect(ask(indexed, new IndexedLeaderFacts(indexed))).toEqual([HOLDINGS_BEFORE, FRACTIONS, USD_AMOUNTS]);
  });

  it('two followers asking at the same step of a walk read the same holdings from the first facts', () => {
    const indexed = indexTape(tape(SWAPS));
    const facts = new IndexedLeaderFacts(indexed);
    const twice: string[] = [];
    for (const i of indexed.order) {
      const swap = indexed.swaps[i]!;
      facts.moveHoldings(swap, i);
      const first = facts.heldBefore().toString();
      facts.moveHoldings(swap, i);
      expect(facts.heldBefore().toString()).toBe(first);
      twice[i] = first;
    }
    expect(twice).toEqual(HOLDINGS_BEFORE);
  });

  it('facts made not to keep keep nothing by swap, however many came before them', () => {
    const indexed = indexTape(tape(SWAPS));
    ask(indexed, new IndexedLeaderFacts(indexed, false));
    expect(ask(indexed, new IndexedLeaderFacts(indexed, false))).toEqual([HOLDINGS_BEFORE, FRACTIONS, USD_AMOUNTS]);
    const memo = tapeMemo(indexed);
    expect(memo.holdingsBefore.filter((h) => h !== undefined)).toEqual([]);
    expect(memo.usdAmount.filter((a) => a !== undefined)).toEqual([]);
  });

  it("the pairs are numbered within each wallet, each swap's previous the same pair's", () => {
    const indexed = indexTape(
      tape([
        buy(LEADER_A, TOKEN_X, at(0), 10, 2),
        buy(LEADER_B, TOKEN_X, at(1), 1, 2),
        buy(LEADER_A, TOKEN_Y, at(2), 5, 2),
        sell(LEADER_A, TOKEN_X, at(3), 3, 4),
        sell(LEADER_A, TOKEN_Y, at(4), 5, 4),
      ]),
    );
    const { pairOf, previous, pairsOfWallet } = tapeMemo(indexed).swapPairs();
    // Leader A (wallet 0): X is its pair 0, Y its pair 1; leader B (wallet 1): X is its pair 0.
    expect([...pairOf]).toEqual([0, 0, 1, 0, 1]);
    expect([...previous]).toEqual([-1, -1, -1, 0, 2]);
    expect([...pairsOfWallet]).toEqual([2, 1]);
  });

  it("a stream's facts give the same values, by token and leader", () => {
    const indexed = indexTape(tape(SWAPS));
    expect(ask(indexed, new StreamLeaderFacts(indexed.walletIds.size))).toEqual([
      HOLDINGS_BEFORE,
      FRACTIONS,
      USD_AMOUNTS,
    ]);
  });

  it("a stream's facts make slots only for the tokens its leaders trade", () => {
    // Ten thousand leaders, a token numbered 100,000 (a live feed's): slots for every token below
    // it would be a billion; only the one traded is made.
    const facts = new StreamLeaderFacts(10_000);
    const [first, second] = [buy(LEADER_A, TOKEN_X, at(0), 2, 1), sell(LEADER_A, TOKEN_X, at(1), 1, 1)];
    facts.moveHoldings(first, -1, 100_000, 9_999);
    facts.moveHoldings(second, -1, 100_000, 9_999);
    expect(facts.heldBefore().toString()).toBe('2');
  });
});
