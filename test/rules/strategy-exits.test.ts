/**
 * Strategy extensions (model 2.0) section 5, price exits. After step 2 of a swap (its price
 * recorded) and before step 3 (the copy), if the swap's token has an open deal, its exits are
 * checked at P = the swap's usd_price, avg = usd_buy_price_avg, ROI(P) = 100 × (P − avg) / avg:
 * 1. take profit, each level not yet fired in this deal, ascending roi: ROI ≥ roi → sell
 *    sell_percent % of the qty held then (each level once a deal, several may fire at one swap);
 * 2. stop loss: ROI ≤ −stop_loss_percent → sell the whole qty;
 * 3. trailing stop: P ≤ peak × (1 − x / 100) → sell the whole qty; peak = the reference price of
 *    the deal's first buy, then every price recorded for the token while the deal is open.
 * Checks stop when the deal closes; never right after a follower buy. An exit sell is at P and
 * the known liquidity after step 2, at the swap's time; a fraction g of qty takes g × lot from every lot.
 * Flat scenario (test/support/scenario.ts): no slippage without liquidity, 1 USD network fee a trade.
 */
import { describe, expect, it } from 'vitest';
import type { SimulatorRequestInput } from '../../src/model/request.js';
import type { SimulatedDeal, SimulatorResponse } from '../../src/model/response.js';
import {
  at,
  buy,
  DAY_START,
  FLAT_OPTIONS,
  LEADER_A,
  LEADER_B,
  MARKET,
  near,
  nearAll,
  nearList,
  onlyDeal,
  run,
  sell,
  TOKEN_X,
  TOKEN_Y,
} from '../support/scenario.js';

type Swap = Parameters<typeof run>[0][number];

/** `run` with a `strategy` member (the request input type may not know it yet). */
function runStrategy(
  swaps: Swap[],
  strategy: Record<string, unknown>,
  overrides: Partial<SimulatorRequestInput> = {},
): SimulatorResponse {
  return run(swaps, { ...overrides, strategy } as Partial<SimulatorRequestInput>, FLAT_OPTIONS);
}

/** The trades of a deal as [type, seconds after window_start]. */
function shape(deal: SimulatedDeal): [string, number][] {
  return deal.trades.map((t) => [t.type, t.time - DAY_START]);
}

describe('take profit (strategy 5.1)', () => {
  const LADDER = [
    { roi: 50, sell_percent: 50 },
    { roi: 100, sell_percent: 50 },
  ];

  it('a two-level ladder fires at one swap, lowest first, each level on the qty held then', () => {
    // A buys 1000 at 1 at +100 (A = 1000): qty 1000, avg 1.
    // +200 MARKET at 2.5: ROI = 100 × (2.5 − 1) / 1 = 150 ≥ 50 → level 1 sells 50 % of 1000 = 500
    //      at 2.5 = 1250; ROI 150 ≥ 100 → level 2 sells 50 % of 500 = 250 at 2.5 = 625; qty 250.
    // +300 MARKET at 3: ROI 200, but both levels have fired → nothing.
    // pnl_realized = (1250 − 500) + (625 − 250) − 3 fees = 1122; unrealized = 250 × 3 − 250 = 500
    const deal = onlyDeal(
      runStrategy(
        [
          buy(LEADER_A, TOKEN_X, at(100), 1000, 1),
          buy(MARKET, TOKEN_X, at(200), 1, 2.5),
          buy(MARKET, TOKEN_X, at(300), 1, 3),
        ],
        {
          take_profit: LADDER,
        },
      ),
    );
    expect(shape(deal)).toEqual([
      ['buy', 100],
      ['sell_take_profit', 200],
      ['sell_take_profit', 200],
    ]);
    nearList(
      deal.trades.map((t) => t.quantity),
      [1000, 500, 250],
      'quantity',
    );
    nearList(
      deal.trades.map((t) => t.usd_amount!),
      [1000, 1250, 625],
      'usd_amount',
    );
    nearList(
      deal.trades.map((t) => t.usd_price!),
      [1, 2.5, 2.5],
      'usd_price',
    );
    // avg does not change by a sell: usd_invested = qty × 1 → 1000, 500, 250
    nearList(
      deal.trades.map((t) => t.usd_invested),
      [1000, 500, 250],
      'usd_invested',
    );
    nearList(
      deal.trades.map((t) => t.usd_buy_price_avg),
      [1, 1, 1],
      'usd_buy_price_avg',
    );
    expect(deal.status).toBe('open');
    expect(deal.special_tag).toBeNull();
    near(deal.pnl_realized, 1122, 'pnl_realized');
    near(deal.pnl_unrealized, 500, 'pnl_unrealized');
    near(deal.closed_position, 75, 'closed_position'); // 100 × 750 / 1000
  });

  it('levels fire at separate swaps, at exactly their roi, each once a deal', () => {
    // buy 1000 at 1 (avg 1).
    // +200 P 1.49: ROI 49 < 50 → nothing.
    // +300 P 1.5: ROI 50 ≥ 50 → level 1: 50 % of 1000 = 500 at 1.5 = 750; qty 500.
    // +400 P 1: nothing.  +500 P 1.6: ROI 60; level 1 has fired, 60 < 100 → nothing.
    // +600 P 2: ROI 100 ≥ 100 → level 2: 50 % of 500 = 250 at 2 = 500; qty 250.
    // +700 P 3: nothing left to fire.
    // pnl_realized = (750 − 500) + (500 − 250) − 3 = 497
    const deal = onlyDeal(
      runStrategy(
        [
          buy(LEADER_A, TOKEN_X, at(100), 1000, 1),
          buy(MARKET, TOKEN_X, at(200), 1, 1.49),
          buy(MARKET, TOKEN_X, at(300), 1, 1.5),
          buy(MARKET, TOKEN_X, at(400), 1, 1),
          buy(MARKET, TOKEN_X, at(500), 1, 1.6),
          buy(MARKET, TOKEN_X, at(600), 1, 2),
          buy(MARKET, TOKEN_X, at(700), 1, 3),
        ],
        { take_profit: LADDER },
      ),
    );
    expect(shape(deal)).toEqual([
      ['buy', 100],
      ['sell_take_profit', 300],
      ['sell_take_profit', 600],
    ]);
    nearList(
      deal.trades.map((t) => t.quantity),
      [1000, 500, 250],
      'quantity',
    );
    nearList(
      deal.trades.map((t) => t.usd_amount!),
      [1000, 750, 500],
      'usd_amount',
    );
    near(deal.pnl_realized, 497, 'pnl_realized');
  });

  it('a level of 100 % closes the deal (tag take_profit), the next level does not fire, a new deal has a fresh ladder', () => {
    // ladder [50 → 100 %, 60 → 50 %]. buy 1000 at 1 at +100.
    // +200 P 2: ROI 100 → level 1 sells all 1000 at 2 = 2000; closed; the checks stop (level 2 not fired).
    // +300 A buys 500 at 2 (a = 1000): no open deal → deal 1: A = 1000, 500 tokens, avg 2.
    // +400 P 3: ROI = 100 × (3 − 2) / 2 = 50 → deal 1's level 1 sells 500 at 3 = 1500; closed.
    //      (60 ≤ ROI? no: 50 < 60, level 2 does not fire; the deal is closed anyway.)
    // deal 0: pnl = 2000 − 1000 − 2 = 998; deal 1: pnl = 1500 − 1000 − 2 = 498
    const response = runStrategy(
      [
        buy(LEADER_A, TOKEN_X, at(100), 1000, 1),
        buy(MARKET, TOKEN_X, at(200), 1, 2),
        buy(LEADER_A, TOKEN_X, at(300), 500, 2),
        buy(MARKET, TOKEN_X, at(400), 1, 3),
      ],
      {
        take_profit: [
          { roi: 50, sell_percent: 100 },
          { roi: 60, sell_percent: 50 },
        ],
      },
    );
    expect(response.deals.map(shape)).toEqual([
      [
        ['buy', 100],
        ['sell_take_profit', 200],
      ],
      [
        ['buy', 300],
        ['sell_take_profit', 400],
      ],
    ]);
    expect(response.deals.map((d) => [d.status, d.special_tag])).toEqual([
      ['closed', 'take_profit'],
      ['closed', 'take_profit'],
    ]);
    nearList(
      response.deals.map((d) => d.pnl_realized),
      [998, 498],
      'pnl_realized',
    );
    near(response.deals[0]!.trades[1]!.usd_invested, 0, 'usd_invested after the last sell');
  });

  it('sells a percentage of what is held, not of what was bought', () => {
    // ladder [50 → 50 %]. buy 1000 at 1; A sells 600 of h 1000 at 1: f = 0.6 → 600 tokens; qty 400.
    // MARKET at 2: ROI 100 → 50 % of 400 = 200 at 2 = 400 (not 50 % of 1000 = 500); qty 200.
    const deal = onlyDeal(
      runStrategy(
        [
          buy(LEADER_A, TOKEN_X, at(100), 1000, 1),
          sell(LEADER_A, TOKEN_X, at(200), 600, 1),
          buy(MARKET, TOKEN_X, at(300), 1, 2),
        ],
        {
          take_profit: [{ roi: 50, sell_percent: 50 }],
        },
      ),
    );
    expect(shape(deal)).toEqual([
      ['buy', 100],
      ['sell', 200],
      ['sell_take_profit', 300],
    ]);
    nearList(
      deal.trades.map((t) => t.quantity),
      [1000, 600, 200],
      'quantity',
    );
    nearList(
      deal.trades.map((t) => t.usd_amount!),
      [1000, 600, 400],
      'usd_amount',
    );
  });

  it("is checked at a leader's own sell swap before the sell is copied", () => {
    // ladder [50 → 50 %]. buy 1000 at 1 at +100 (lot_A 1000).
    // +200 A sells 500 of h 1000 at 2: step 2 → ROI 100: take profit sells 50 % of 1000 = 500 at 2
    //      = 1000 (lot_A 500); step 3 → f = 500 / 1000 = 0.5 of lot 500 = 250 at 2 = 500; qty 250.
    // pnl_realized = (1000 − 500) + (500 − 250) − 3 = 747
    const deal = onlyDeal(
      runStrategy([buy(LEADER_A, TOKEN_X, at(100), 1000, 1), sell(LEADER_A, TOKEN_X, at(200), 500, 2)], {
        take_profit: [{ roi: 50, sell_percent: 50 }],
      }),
    );
    expect(shape(deal)).toEqual([
      ['buy', 100],
      ['sell_take_profit', 200],
      ['sell', 200],
    ]);
    nearList(
      deal.trades.map((t) => t.quantity),
      [1000, 500, 250],
      'quantity',
    );
    near(deal.pnl_realized, 747, 'pnl_realized');
  });

  it("is checked at a leader's own buy swap before the buy is copied", () => {
    // ladder [50 → 100 %]. buy 1000 at 1 at +100.
    // +200 A buys 100 at 2: step 2 → ROI 100 → sells 1000 at 2, deal 0 closed (take_profit);
    //      step 3 → the buy (a = 200, A = 200, 100 tokens) opens deal 1.
    const response = runStrategy([buy(LEADER_A, TOKEN_X, at(100), 1000, 1), buy(LEADER_A, TOKEN_X, at(200), 100, 2)], {
      take_profit: [{ roi: 50, sell_percent: 100 }],
    });
    expect(response.deals.map(shape)).toEqual([
      [
        ['buy', 100],
        ['sell_take_profit', 200],
      ],
      [['buy', 200]],
    ]);
    expect(response.deals.map((d) => d.status)).toEqual(['closed', 'open']);
    nearAll(response.deals[1]!.trades[0]!, { usd_amount: 200, quantity: 100 }, 'deal 1 buy');
  });

  it('sells at P against the known liquidity after step 2', () => {
    // ladder [50 → 100 %]. buy 1000 at 1 without liquidity (s = 0, flat options).
    // MARKET at 2 carrying L 100000: V = 1000 × 2 = 2000; s = 2000 / 50000 = 0.04;
    // usd_amount = 2000 / 1.04 = 1923.0769…; price = 2 / 1.04 = 1.923…; slippage = 4 / 1.04 = 3.846…
    // pnl_realized = 2000 / 1.04 − 1000 − 2 = 921.0769…; slippage loss = 2000 − 2000 / 1.04
    const deal = onlyDeal(
      runStrategy(
        [buy(LEADER_A, TOKEN_X, at(100), 1000, 1), buy(MARKET, TOKEN_X, at(200), 1, 2, { usd_liquidity: 100_000 })],
        {
          take_profit: [{ roi: 50, sell_percent: 100 }],
        },
      ),
    );
    const exit = deal.trades[1]!;
    expect(exit.type).toBe('sell_take_profit');
    expect(exit.time).toBe(at(200));
    expect(exit.usd_liquidity).toBe(100_000);
    nearAll(
      exit,
      { quantity: 1000, usd_amount: 2000 / 1.04, usd_price: 2 / 1.04, slippage: 4 / 1.04, usd_invested: 0 },
      'exit',
    );
    near(deal.pnl_realized, 2000 / 1.04 - 1002, 'pnl_realized');
    near(deal.usd_slippage_loss, 2000 - 2000 / 1.04, 'usd_slippage_loss');
  });
});

describe('a partial exit sell takes g × lot from every lot (strategy 5)', () => {
  it('two leaders: 40 % of each lot, then each leader sells from what is left of its own lot', () => {
    // leaders A and B, ladder [50 → 40 %].
    // +100 A buys 1000 at 1 → lot_A 1000; +200 B buys 500 at 1 → lot_B 500; qty 1500.
    // +300 MARKET at 2: ROI 100 → g = 0.4: 0.4 × 1000 + 0.4 × 500 = 400 + 200 = 600 at 2 = 1200;
    //      lot_A 600, lot_B 300.
    // +400 A sells 1000 of h 1000 at 2: f = 1 → lot_A 600 at 2 = 1200.
    // +500 B sells 250 of h 500 at 2: f = 0.5 → 0.5 × 300 = 150 at 2 = 300; qty = 150 (lot_B).
    // (Taken from lot_A alone, A's sell would be 400 and B's 250.)
    const deal = onlyDeal(
      runStrategy(
        [
          buy(LEADER_A, TOKEN_X, at(100), 1000, 1),
          buy(LEADER_B, TOKEN_X, at(200), 500, 1),
          buy(MARKET, TOKEN_X, at(300), 1, 2),
          sell(LEADER_A, TOKEN_X, at(400), 1000, 2),
          sell(LEADER_B, TOKEN_X, at(500), 250, 2),
        ],
        { take_profit: [{ roi: 50, sell_percent: 40 }] },
        { wallets: [LEADER_A, LEADER_B] },
      ),
    );
    expect(shape(deal)).toEqual([
      ['buy', 100],
      ['buy', 200],
      ['sell_take_profit', 300],
      ['sell', 400],
      ['sell', 500],
    ]);
    nearList(
      deal.trades.map((t) => t.quantity),
      [1000, 500, 600, 600, 150],
      'quantity',
    );
    nearList(
      deal.trades.map((t) => t.usd_amount!),
      [1000, 500, 1200, 1200, 300],
      'usd_amount',
    );
    // qty × avg 1 after each: 1000, 1500, 900, 300, 150
    nearList(
      deal.trades.map((t) => t.usd_invested),
      [1000, 1500, 900, 300, 150],
      'usd_invested',
    );
    expect(deal.status).toBe('open');
  });

  it('g = 1 empties every lot: a later leader sell finds no open deal', () => {
    // leaders A and B, ladder [50 → 100 %]: lots 1000 and 500 sold whole (1500 at 2 = 3000), closed;
    // A's sell at +400 then has no open deal: nothing.
    const response = runStrategy(
      [
        buy(LEADER_A, TOKEN_X, at(100), 1000, 1),
        buy(LEADER_B, TOKEN_X, at(200), 500, 1),
        buy(MARKET, TOKEN_X, at(300), 1, 2),
        sell(LEADER_A, TOKEN_X, at(400), 1000, 2),
      ],
      { take_profit: [{ roi: 50, sell_percent: 100 }] },
      { wallets: [LEADER_A, LEADER_B] },
    );
    const deal = onlyDeal(response);
    expect(shape(deal)).toEqual([
      ['buy', 100],
      ['buy', 200],
      ['sell_take_profit', 300],
    ]);
    nearAll(deal.trades[2]!, { quantity: 1500, usd_amount: 3000, usd_invested: 0 }, 'exit');
    expect(deal.special_tag).toBe('take_profit');
  });
});

describe('stop loss (strategy 5.2)', () => {
  it.each([
    // buy 1000 at 1 (avg 1); P 0.8: ROI = 100 × (0.8 − 1) / 1 = −20 ≤ −20 → sells 1000 at 0.8 = 800
    { name: 'ROI exactly −stop_loss_percent: fires', price: 0.8, fires: true },
    // P 0.8001: ROI = −19.99 > −20 → nothing
    { name: 'ROI just above −stop_loss_percent: nothing', price: 0.8001, fires: false },
  ])('$name', ({ price, fires }) => {
    const deal = onlyDeal(
      runStrategy([buy(LEADER_A, TOKEN_X, at(100), 1000, 1), buy(MARKET, TOKEN_X, at(200), 1, price)], {
        stop_loss_percent: 20,
      }),
    );
    if (!fires) {
      expect(shape(deal)).toEqual([['buy', 100]]);
      expect(deal.status).toBe('open');
      return;
    }
    expect(shape(deal)).toEqual([
      ['buy', 100],
      ['sell_stop_loss', 200],
    ]);
    nearAll(deal.trades[1]!, { quantity: 1000, usd_amount: 800, usd_price: 0.8, usd_invested: 0 }, 'exit');
    expect(deal.status).toBe('closed');
    expect(deal.special_tag).toBe('stop_loss');
    // 800 − 1000 − 2 fees = −202
    near(deal.pnl_realized, -202, 'pnl_realized');
  });

  it.each([
    // A buys 1000 at 1 (1000 USD), then 500 at 0.9 (a = 450, A = 450): at that swap's step 2
    // ROI = −10 (avg 1) → nothing; avg = 1450 / 1500 = 0.9666…
    // P 0.77: ROI = 100 × (0.77 / 0.9666… − 1) = −20.34 → fires, sells 1500 at 0.77 = 1155
    { price: 0.77, fires: true },
    // P 0.78: ROI = −19.31 → nothing
    { price: 0.78, fires: false },
  ])('uses avg over all buys: P $price', ({ price, fires }) => {
    const deal = onlyDeal(
      runStrategy(
        [
          buy(LEADER_A, TOKEN_X, at(100), 1000, 1),
          buy(LEADER_A, TOKEN_X, at(200), 500, 0.9),
          buy(MARKET, TOKEN_X, at(300), 1, price),
        ],
        {
          stop_loss_percent: 20,
        },
      ),
    );
    expect(deal.trades.map((t) => t.type)).toEqual(fires ? ['buy', 'buy', 'sell_stop_loss'] : ['buy', 'buy']);
    near(deal.trades[1]!.usd_buy_price_avg, 1450 / 1500, 'avg');
    if (fires) nearAll(deal.trades[2]!, { quantity: 1500, usd_amount: 1155 }, 'exit');
  });

  it('fires before the trailing stop at the same swap; the checks stop once the deal is closed', () => {
    // stop loss 20, trailing 10; buy 1000 at 1 (peak 1). P 0.8: ROI −20 → stop loss sells 1000.
    // The trailing stop (0.8 ≤ 1 × 0.9) would fire too, but the deal is closed: one exit, tag stop_loss.
    const deal = onlyDeal(
      runStrategy([buy(LEADER_A, TOKEN_X, at(100), 1000, 1), buy(MARKET, TOKEN_X, at(200), 1, 0.8)], {
        stop_loss_percent: 20,
        trailing_stop_percent: 10,
      }),
    );
    expect(shape(deal)).toEqual([
      ['buy', 100],
      ['sell_stop_loss', 200],
    ]);
    expect(deal.special_tag).toBe('stop_loss');
  });

  it('is not checked right after a follower buy, only at the next swap', () => {
    // stop loss 1. A buys at p 1 with L 100000: A = 1000, s = 1000 / 50000 = 0.02, price 1.02,
    // quantity = 1000 / 1.02 = 980.392…, avg 1.02. Right after the buy ROI(1) = 100 × (1 − 1.02) / 1.02
    // = −1.96 ≤ −1, but exits are not checked there.
    // +200 MARKET at 1 (no liquidity; known liquidity stays 100000): ROI −1.96 ≤ −1 → sells
    // V = 980.392… × 1; s = V / 50000; usd_amount = V / (1 + s) = 50000 V / (50000 + V)
    // = 5·10⁷ / 52000 = 961.538…; price = usd / quantity = 0.98076…; slippage = 100 s / (1 + s) = 1.923…
    // pnl_realized = 961.538… − 1000 − 2 = −40.4615…
    const deal = onlyDeal(
      runStrategy(
        [buy(LEADER_A, TOKEN_X, at(100), 1000, 1, { usd_liquidity: 100_000 }), buy(MARKET, TOKEN_X, at(200), 1, 1)],
        { stop_loss_percent: 1 },
      ),
    );
    expect(shape(deal)).toEqual([
      ['buy', 100],
      ['sell_stop_loss', 200],
    ]);
    const exit = deal.trades[1]!;
    expect(exit.usd_liquidity).toBe(100_000);
    nearAll(
      exit,
      {
        quantity: 1000 / 1.02,
        usd_amount: 50_000_000 / 52_000,
        usd_price: 50_000_000 / 52_000 / (1000 / 1.02),
        slippage: 100 / 52,
        usd_invested: 0,
      },
      'exit',
    );
    near(deal.pnl_realized, 50_000_000 / 52_000 - 1002, 'pnl_realized');
  });

  it("checks only the deal of the swap's token", () => {
    // stop loss 20; deals X and Y bought at 1; MARKET trades Y at 0.5 → Y's stop loss only
    const response = runStrategy(
      [
        buy(LEADER_A, TOKEN_X, at(100), 1000, 1),
        buy(LEADER_A, TOKEN_Y, at(100), 1000, 1),
        buy(MARKET, TOKEN_Y, at(200), 1, 0.5),
      ],
      { stop_loss_percent: 20 },
    );
    expect(response.deals.map((d) => [d.token.address, d.status, d.special_tag])).toEqual([
      [TOKEN_X, 'open', null],
      [TOKEN_Y, 'closed', 'stop_loss'],
    ]);
  });
});

describe('trailing stop (strategy 5.3)', () => {
  it.each([
    // A buys 1000 at 2 (a = 2000, A = 1000, 500 tokens): peak starts at 2.
    // P 1.5 ≤ 2 × (1 − 25 / 100) = 1.5 → sells 500 at 1.5 = 750; pnl = 750 − 1000 − 2 = −252
    { name: 'P exactly peak × (1 − x/100): fires', price: 1.5, fires: true },
    { name: 'P just above: nothing', price: 1.5001, fires: false },
  ])('the peak starts at the first buy’s reference price; $name', ({ price, fires }) => {
    const deal = onlyDeal(
      runStrategy([buy(LEADER_A, TOKEN_X, at(100), 1000, 2), buy(MARKET, TOKEN_X, at(200), 1, price)], {
        trailing_stop_percent: 25,
      }),
    );
    if (!fires) {
      expect(deal.status).toBe('open');
      expect(deal.trades_number).toBe(1);
      return;
    }
    expect(shape(deal)).toEqual([
      ['buy', 100],
      ['sell_trailing_stop', 200],
    ]);
    nearAll(deal.trades[1]!, { quantity: 500, usd_amount: 750, usd_price: 1.5 }, 'exit');
    expect(deal.special_tag).toBe('trailing_stop');
    near(deal.pnl_realized, -252, 'pnl_realized');
  });

  it('the peak rises with every price recorded while the deal is open, not before it opened', () => {
    // trailing 25. +50 MARKET at 10 (before the deal: not in the peak).
    // +100 A buys 1000 at 1: peak 1 (ROI 0).  +200 MARKET at 2: peak 2 (2 > 1.5 no).
    // +300 MARKET at 1.6: 1.6 > 2 × 0.75 = 1.5 → nothing.  +400 MARKET at 1.5 ≤ 1.5 → sells 1000 at 1.5.
    // pnl = 1500 − 1000 − 2 = 498 (a trailing stop in profit)
    const deal = onlyDeal(
      runStrategy(
        [
          buy(MARKET, TOKEN_X, at(50), 1, 10),
          buy(LEADER_A, TOKEN_X, at(100), 1000, 1),
          buy(MARKET, TOKEN_X, at(200), 1, 2),
          buy(MARKET, TOKEN_X, at(300), 1, 1.6),
          buy(MARKET, TOKEN_X, at(400), 1, 1.5),
        ],
        { trailing_stop_percent: 25 },
      ),
    );
    expect(shape(deal)).toEqual([
      ['buy', 100],
      ['sell_trailing_stop', 400],
    ]);
    nearAll(deal.trades[1]!, { quantity: 1000, usd_amount: 1500 }, 'exit');
    near(deal.pnl_realized, 498, 'pnl_realized');
  });

  it('a new deal starts a new peak', () => {
    // trailing 25. Deal 0: buy 1000 at 4 at +100 (A = 1000, 250 tokens), A sells all at 4 at +200 (closed).
    // Deal 1: A buys 1000 at 1 at +300 (peak 1, not 4). +400 MARKET at 0.8: 0.8 > 0.75 → nothing
    // (against the old peak 4 it would fire). +500 MARKET at 0.75 ≤ 1 × 0.75 → fires.
    const response = runStrategy(
      [
        buy(LEADER_A, TOKEN_X, at(100), 250, 4),
        sell(LEADER_A, TOKEN_X, at(200), 250, 4),
        buy(LEADER_A, TOKEN_X, at(300), 1000, 1),
        buy(MARKET, TOKEN_X, at(400), 1, 0.8),
        buy(MARKET, TOKEN_X, at(500), 1, 0.75),
      ],
      { trailing_stop_percent: 25 },
    );
    expect(response.deals.map(shape)).toEqual([
      [
        ['buy', 100],
        ['sell', 200],
      ],
      [
        ['buy', 300],
        ['sell_trailing_stop', 500],
      ],
    ]);
  });

  it('after a delayed buy: the peak starts at its reference price, checked at the same swap’s step 2', () => {
    // d = 60, trailing 25. +100 A buys 1000 at 1 (a = 1000) → due +160. +130 MARKET at 2.
    // +170 MARKET at 1.5: step 1 fires the buy at the known price 2: A = 1000 → 500 tokens, time +160,
    // peak 2; step 2 records 1.5 and checks: 1.5 ≤ 2 × 0.75 = 1.5 → sells 500 at 1.5 = 750 at +170.
    const deal = onlyDeal(
      runStrategy(
        [
          buy(LEADER_A, TOKEN_X, at(100), 1000, 1),
          buy(MARKET, TOKEN_X, at(130), 1, 2),
          buy(MARKET, TOKEN_X, at(170), 1, 1.5),
        ],
        {
          copy_delay_seconds: 60,
          trailing_stop_percent: 25,
        },
      ),
    );
    expect(shape(deal)).toEqual([
      ['buy', 160],
      ['sell_trailing_stop', 170],
    ]);
    nearAll(deal.trades[0]!, { usd_price: 2, quantity: 500 }, 'buy');
    nearAll(deal.trades[1]!, { quantity: 500, usd_amount: 750 }, 'exit');
  });

  it('after a delayed buy: take profit at the same swap that fired the copy', () => {
    // d = 60, ladder [50 → 100 %]. +100 A buys 1000 at 1 → +160. +170 MARKET at 2: step 1 buys 1000
    // tokens at the known price 1 (time +160); step 2: ROI 100 → sells 1000 at 2 = 2000 at +170.
    const deal = onlyDeal(
      runStrategy([buy(LEADER_A, TOKEN_X, at(100), 1000, 1), buy(MARKET, TOKEN_X, at(170), 1, 2)], {
        copy_delay_seconds: 60,
        take_profit: [{ roi: 50, sell_percent: 100 }],
      }),
    );
    expect(shape(deal)).toEqual([
      ['buy', 160],
      ['sell_take_profit', 170],
    ]);
    near(deal.trades[1]!.usd_amount, 2000, 'exit');
    expect(deal.special_tag).toBe('take_profit');
  });
});
