/**
 * Model 1.1 and 4: swaps are processed in ascending time, equal times in input order (a stable
 * sort); deals are ordered by open_time, ties by the order in which they opened.
 */
import { describe, expect, it } from 'vitest';
import { at, buy, LEADER_A, MARKET, run, TOKEN_X, TOKEN_Y, TOKEN_Z } from '../support/scenario.js';

describe('deal order (model 4)', () => {
  it.each([
    // MARKET's swap makes X the first token seen, so token order is not what orders deals
    { name: 'Y listed before X', listed: [TOKEN_Y, TOKEN_X], deals: [TOKEN_Y, TOKEN_X] },
    { name: 'X listed before Y', listed: [TOKEN_X, TOKEN_Y], deals: [TOKEN_X, TOKEN_Y] },
  ])('two deals opening at the same second keep opening order: $name', ({ listed, deals }) => {
    const response = run([
      buy(MARKET, TOKEN_X, at(10), 1, 1),
      ...listed.map((token) => buy(LEADER_A, token, at(100), 10, 1)),
    ]);
    expect(response.deals.map((d) => d.token.address)).toEqual(deals);
    expect(response.deals.map((d) => d.open_time)).toEqual([at(100), at(100)]);
  });

  it('orders by time, not by position in the input list', () => {
    // Z's buy is listed last but happens first
    const response = run([
      buy(LEADER_A, TOKEN_X, at(300), 10, 1),
      buy(LEADER_A, TOKEN_Y, at(200), 10, 1),
      buy(LEADER_A, TOKEN_Z, at(100), 10, 1),
    ]);
    expect(response.deals.map((d) => d.token.address)).toEqual([TOKEN_Z, TOKEN_Y, TOKEN_X]);
    expect(response.cumulative_pnl_and_fee_chart.timestamps).toEqual([at(100), at(200), at(300)]);
  });
});
