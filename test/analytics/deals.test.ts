/**
 * Wallet deals (4.5): the deal rules, every field of a deal and its trades, by hand.
 * The main scenario's arithmetic (docs/analytics.md, worked example):
 *   A: buy 100 @ 1 → qty 100, bought 100, avg 1
 *      buy 100 @ 2 → qty 200, bought 300, avg 1.5
 *      sell 50 @ 2.4 = 120 → realized 120 − 50 × 1.5 = 45, qty 150
 *      sell 200 @ 2 = 400 while holding 150 → the held part: 400 × 150/200 = 300,
 *        realized 300 − 150 × 1.5 = 75 → 120 in all; qty 0: closed
 *   B: sell 10 with no deal open → ignored; buy 50 for 110 USD → avg 2.2; B's last price 3:
 *        unrealized 50 × 3 − 110 = 40
 */
import { describe, expect, it } from 'vitest';
import {
  analyticsWarnings,
  buildAnalyticsIndex,
  walletDeals,
  WalletDealsResultSchema,
  type WalletDeal,
} from '../../src/analytics.js';
import { computeOwnDeals } from '../../src/analytics/own-deals.js';
import { pairDeals } from '../../src/analytics/pairing.js';
import { A, B, buy, checked, FLAT, HOUR, M, mainTape, near, sell, solTape, T0, V, W } from './support.js';

function deals(query: Record<string, unknown> = {}, options = FLAT as object): WalletDeal[] {
  const index = buildAnalyticsIndex(mainTape(), options);
  return checked(WalletDealsResultSchema, walletDeals(index, W, { network: 'sol', ...query })).deals;
}

describe('the wallet deal rules (initial)', () => {
  const [dealB, dealA] = deals();

  it('opens a deal at a buy with none open and closes it when the holdings return to 0', () => {
    expect(dealA!.open_time.initial).toBe(T0);
    expect(dealA!.last_operation_time.initial).toBe(T0 + 300);
    expect(dealA!.status.initial).toBe('closed');
    expect(dealA!.trades_number.initial).toBe(4);
    expect(dealB!.status.initial).toBe('open');
    expect(dealB!.trades_number.initial).toBe(1);
  });

  it.each([
    // [field, deal A, deal B]
    ['pnl_realized', 120, 0], // 45 + 75; B unsold
    ['pnl_unrealized', 0, 40], // closed; 50 × 3 − 110
    ['pnl_total', 120, 40],
    ['roi_realized', 40, 0], // 100 × 120 / 300
    ['roi_unrealized', 0, (100 * 40) / 110], // 36.36…
    ['roi_total', 40, (100 * 40) / 110],
    ['closed_position', 100, 0], // 100 × (50 + 150) / 200
    ['capital_required', 300, 110], // invested after each trade: 100, 300, 225, 0
    // A's roi_total at every swap of A during its life: 0 (own buy at 1), −50 (M at 0.5:
    // 100 × (100 × 0.5 − 100) / 100), 33.3 (own buy at 2), 100 (M at 3: 100 × (200 × 3 − 300)
    // / 300), 60 (sell at 2.4: 100 × (45 + 150 × 2.4 − 225) / 300), 40 (closed: 100 × 120 / 300).
    ['roi_low', -50, (100 * (50 * 2 - 110)) / 110], // B at 2: −9.09…
    ['roi_high', 100, (100 * 40) / 110], // B at 3: 36.36…
  ] as const)('%s', (field, a, b) => {
    near(dealA![field].initial as number, a);
    near(dealB![field].initial as number, b);
  });

  it('counts the sells it set aside: one with no open deal, one larger than held', () => {
    const index = buildAnalyticsIndex(mainTape());
    expect(analyticsWarnings(index, W)).toEqual({ ignored_sells: 1, oversold_sells: 1 });
    expect(analyticsWarnings(index, M)).toEqual({ ignored_sells: 0, oversold_sells: 0 }); // buys 10 A, sells 10
    expect(analyticsWarnings(index)).toEqual({ ignored_sells: 1, oversold_sells: 1 });
  });

  it('closes a deal at a sell of all but a dust, as the follower deal closes on it', () => {
    // A float's "sell all": 281.7 − 0.1 leaves 281.6, sold as 281.59999999999997 (3e-14 left,
    // within a millionth), so the deal closes and the buy after opens a second one, on both sides.
    const tape = solTape([
      buy(V, A, T0, 281.7, 0.01),
      sell(V, A, T0, 0.1, 0.01),
      sell(V, A, T0, 281.59999999999997, 0.01),
      buy(V, A, T0, 0.1, 0.01),
    ]);
    const list = checked(
      WalletDealsResultSchema,
      walletDeals(buildAnalyticsIndex(tape, FLAT), V, { network: 'sol' }),
    ).deals.reverse();
    expect(list.map((d) => [d.status.initial, d.status.following, d.trades_number.initial])).toEqual([
      ['closed', 'closed', 3],
      ['open', 'open', 1],
    ]);
    // Sold 281.6 − 3e-14 for 2.8159999999999997 USD, the whole 281.6 at cost 0.01: −3e-16.
    near(list[0]!.pnl_realized.initial as number, 2.8159999999999997 - 2.816);
    expect(list[0]!.closed_position.initial).toBe(100);
  });

  it('keeps a dust an earlier deal left in the holdings, and closes on a sell of all of them', () => {
    // Buy 100 at 1, sell 99.99995 at 2: 100 × (1 − 10⁻⁶) = 99.9999 ≤ 99.99995, all sold:
    //   realized 199.9999 − 100 = 99.9999, a dust of 0.00005 held. The follower sells its whole
    //   lot of 100 at 2: 100.
    // Buy 10 at 3 (holdings 10.00005), sell 10 at 4: 10.00005 × (1 − 10⁻⁶) > 10, not all:
    //   the deal's 10 go (realized 40 − 30 = 10) but it stays open, as the follower's keeps
    //   10 − 10 × 10 / 10.00005 tokens. Sell 0.00005 at 4: all of the holdings, both close;
    //   the wallet's sell is of more than its deal holds (0): set aside, realized 0.
    const tape = solTape([
      buy(V, A, T0, 100, 1),
      sell(V, A, T0 + 1, 99.99995, 2),
      buy(V, A, T0 + 2, 10, 3),
      sell(V, A, T0 + 3, 10, 4),
      sell(V, A, T0 + 4, 0.00005, 4),
    ]);
    const index = buildAnalyticsIndex(tape, FLAT);
    const [first, second] = checked(WalletDealsResultSchema, walletDeals(index, V, { network: 'sol' })).deals.reverse();
    expect([first!.status.initial, first!.status.following, first!.trades_number.initial]).toEqual([
      'closed',
      'closed',
      2,
    ]);
    near(first!.pnl_realized.initial as number, 99.9999);
    near(first!.pnl_realized.following as number, 100);
    expect([second!.status.initial, second!.status.following]).toEqual(['closed', 'closed']);
    expect([second!.trades_number.initial, second!.trades_number.following]).toEqual([3, 3]);
    near(second!.pnl_realized.initial as number, 10);
    near(second!.pnl_realized.following as number, 10);
    expect(analyticsWarnings(index, V)).toEqual({ ignored_sells: 0, oversold_sells: 1 });
    const before = checked(WalletDealsResultSchema, walletDeals(index, V, { network: 'sol', to_time: T0 + 3 }))
      .deals[0]!;
    expect([before.status.initial, before.status.following, before.pnl_unrealized.initial]).toEqual([
      'open',
      'open',
      0,
    ]);
  });

  it('keeps one deal per token open at a time and numbers deals in opening order', () => {
    const index = buildAnalyticsIndex(
      solTape([
        buy(V, A, T0, 1, 1),
        buy(V, B, T0 + 1, 1, 1),
        sell(V, A, T0 + 2, 1, 1),
        buy(V, A, T0 + 3, 1, 1),
        buy(V, A, T0 + 4, 1, 1),
      ]),
    );
    const list = walletDeals(index, V, { network: 'sol' }).deals;
    // Newest first: A again (opened at +3, two buys), B (+1), A (+0, closed at +2).
    expect(list.map((d) => [d.id, d.token.address, d.open_time.initial, d.trades_number.initial])).toEqual([
      [3, A, T0 + 3, 2],
      [2, B, T0 + 1, 1],
      [1, A, T0, 2],
    ]);
  });
});

describe('token and trade fields', () => {
  const [dealB, dealA] = deals();

  it('token: metadata when the tape has it, else the first swap of the token and neutral values', () => {
    expect(dealA!.token).toEqual({
      network: 'sol',
      address: A,
      name: 'Alpha Coin',
      symbol: 'ALP',
      scam_status: 'clean',
      created_at: T0 - HOUR,
      started_at: T0,
    });
    // B's first swap is W's ignored sell at T0 + 360: still a swap of B.
    expect(dealB!.token).toEqual({
      network: 'sol',
      address: B,
      name: null,
      symbol: null,
      scam_status: 'unknown',
      created_at: T0 + 360,
      started_at: T0 + 360,
    });
  });

  it('token_age: seconds from the token creation to the deal first trade, on each trade', () => {
    expect(new Set(dealA!.trades.map((t) => t.token_age))).toEqual(new Set([HOUR])); // T0 − (T0 − 3600)
    expect(new Set(dealB!.trades.map((t) => t.token_age))).toEqual(new Set([40])); // 400 − 360
  });

  it("lists the wallet's trades and the follower's copies in event order, with deterministic ids", () => {
    // Swap input indices of W's trades in A: 0, 2, 4, 5 → ids 2i + 1; the copies 2i + 2.
    expect(dealA!.trades.map((t) => [t.id, t.is_following, t.type, t.time])).toEqual([
      [1, false, 'buy', T0],
      [2, true, 'buy', T0],
      [5, false, 'buy', T0 + 120],
      [6, true, 'buy', T0 + 120],
      [9, false, 'sell', T0 + 240],
      [10, true, 'sell', T0 + 240],
      [11, false, 'sell', T0 + 300],
      [12, true, 'sell', T0 + 300],
    ]);
  });

  it("shows the wallet's trade as the tape has it, neutral values for what the tape lacks", () => {
    const first = dealA!.trades[0]!;
    expect(first).toEqual({
      id: 1,
      is_following: false,
      type: 'buy',
      transaction_hash: 'tx-w-1',
      application: { name: '', address: '' },
      usd_amount: 100,
      quantity: 100,
      quantity_unlimited: false,
      usd_price: 1,
      usd_liquidity: 0,
      usd_market_cap: 0,
      token_age: HOUR,
      time: T0,
      pools: [],
      coin_fee: { amount: 0, percent: 0 },
      router_fee: { usd: 0, native: 0 },
      network_fee: { usd: 0, native: 0 },
      swaps: [],
    });
    // The sell larger than held is shown whole; only the deal accounting takes the held part.
    const oversold = dealA!.trades[6]!;
    expect([oversold.quantity, oversold.usd_amount, oversold.transaction_hash]).toEqual([200, 400, '']);
    expect(dealB!.trades[0]!.usd_liquidity).toBe(22_000);
    expect(dealA!.pools).toEqual([]);
  });
});

describe('following: a follower copying this wallet alone', () => {
  it('matches the wallet at the swaps own prices when execution is flat', () => {
    const [dealB, dealA] = deals();
    // A: follower buys 100 USD @ 1 and 200 USD @ 2 (200 tokens, avg 1.5); the wallet sells 50
    // of 200 → f = 0.25 → 50 @ 2.4; then sells 200 ≥ holdings 150 → f = 1 → 150 @ 2 = 300.
    for (const field of [
      'pnl_realized',
      'pnl_total',
      'roi_total',
      'roi_low',
      'roi_high',
      'capital_required',
      'closed_position',
    ] as const) {
      near(dealA![field].following, dealA![field].initial);
    }
    expect(dealA!.status.following).toBe('closed');
    expect(dealA!.trades_number.following).toBe(4);
    // B: buys 110 USD with liquidity 22000 → s = 110 / 11000 = 0.01, price 2.02,
    // 110 / 2.02 = 54.4554… tokens; at 3: 163.366… − 110 = 53.366…
    near(dealB!.pnl_unrealized.following, (110 / 2.02) * 3 - 110);
    near(dealB!.roi_total.following, (100 * ((110 / 2.02) * 3 - 110)) / 110);
    near(dealB!.roi_low.following, (100 * ((110 / 2.02) * 2 - 110)) / 110); // at its own buy, price 2
    expect(dealB!.trades[1]).toMatchObject({
      is_following: true,
      usd_price: 2.02,
      usd_liquidity: 22_000,
      usd_amount: 110,
    });
  });

  it('pays the default copy settings: 100 %, 1 % slippage without liquidity, base fee and 1 % bot fee', () => {
    const index = buildAnalyticsIndex(solTape([buy(V, A, T0, 5, 2)]));
    const [deal] = walletDeals(index, V, { network: 'sol' }).deals;
    // Buy 10 USD @ 2 × 1.01 = 2.02 → 4.9504… tokens; fees 0.000005 SOL × 100 = 0.0005 and
    // 1 % of 10 = 0.1 → realized −0.1005; unrealized 4.9504… × 2 − 10 = −0.0990099…
    near(deal!.pnl_realized.following, -0.1005);
    near(deal!.pnl_unrealized.following, (10 / 2.02) * 2 - 10);
    near(deal!.capital_required.following, 10);
    expect(deal!.trades[1]).toMatchObject({
      router_fee: { usd: 0.1, native: 0.001 }, // 0.1 USD / 100 USD per SOL
      network_fee: { usd: 0.0005, native: 0.000005 },
    });
  });

  it("values a deal open at the end at its token's last price before the end, made once a token", () => {
    const index = buildAnalyticsIndex(mainTape(), FLAT);
    const { buckets } = index;
    const open = computeOwnDeals(buckets, index.wallet(W)!.id, buckets.end, false).deals.find((d) => !d.closed)!;
    expect(open.unrealized.toString()).toBe('40'); // 50 × 3 − 110
    const price = buckets.priceBefore(open.tokenId, buckets.end);
    expect(price?.toString()).toBe('3');
    expect(buckets.priceBefore(open.tokenId, buckets.end)).toBe(price);
    // An earlier end reads the series itself: before the token's first swap it has no price.
    const first = buckets.tokenSeries(open.tokenId).positions[0]!;
    expect(buckets.priceBefore(open.tokenId, first)).toBeNull();
  });

  it('null pairs where the follower took no part', () => {
    // The follower opens a deal at the copy of every opening buy, so with the service's
    // settings it is in every deal; the pairing still leaves a deal without a copy unpaired.
    const index = buildAnalyticsIndex(mainTape(), FLAT);
    const own = computeOwnDeals(index.buckets, index.wallet(W)!.id, index.buckets.end, false).deals;
    const follower = index.follower(index.wallet(W)!);
    expect(pairDeals(own, follower).map((f) => f?.openTime)).toEqual([T0, T0 + 400]);
    expect(pairDeals(own, follower.slice(1)).map((f) => f?.openTime ?? null)).toEqual([null, T0 + 400]);
    expect(pairDeals(own, []).map((f) => f ?? null)).toEqual([null, null]);
  });
});

describe('the deals read: order, paging, search, from_time, to_time', () => {
  const index = buildAnalyticsIndex(
    solTape(
      [
        buy(V, A, T0, 1, 1),
        buy(V, B, T0 + 10, 1, 1),
        sell(V, A, T0 + 20, 1, 3),
        buy(V, A, T0 + 30, 1, 1),
        buy(M, A, T0 + 40, 1, 5),
      ],
      { [A]: { name: 'Alpha Coin', symbol: 'ALP' }, [B]: { name: 'Beta', symbol: 'BET' } },
    ),
    FLAT,
  );
  const read = (q: Record<string, unknown>) =>
    checked(WalletDealsResultSchema, walletDeals(index, V, { network: 'sol', ...q }));
  const ids = (q: Record<string, unknown>) => read(q).deals.map((d) => d.id);

  it.each([
    [{}, [3, 2, 1]], // newest first
    [{ per_page: 2 }, [3, 2]],
    [{ per_page: '2', page: '2' }, [1]],
    [{ page: 3, per_page: 2 }, []],
    [{ search: 'alpha' }, [3, 1]], // part of the name, any case
    [{ search: 'LPH' }, [3, 1]],
    [{ search: 'bet' }, [2]], // the whole symbol
    [{ search: 'be' }, [2]], // part of the name "Beta"
    [{ search: 'AL' }, [3, 1]], // part of "Alpha Coin"; not the symbol, which must be whole
    [{ search: 'tokenbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb' }, [2]], // the whole address, any case
    [{ search: 'TokenB' }, []], // part of an address is no match
    [{ from_time: T0 + 10 }, [3, 2]],
    [{ from_time: String(T0 + 31) }, []],
    [{ to_time: T0 + 25 }, [2, 1]],
  ])('%j → deal ids %j', (query, expected) => {
    expect(ids(query)).toEqual(expected);
  });

  it('gives the page object', () => {
    expect(read({ page: 2, per_page: 1 }).page).toEqual({ current: 2, per_page: 1 });
    expect(read({}).page).toEqual({ current: 1, per_page: 30 });
  });

  it('recomputes the deals up to to_time: later trades dropped, open deals at the price then', () => {
    // Up to T0 + 15: A bought at 1 and not yet sold → open, worth 1 × 1 (its price then).
    const [b, a] = read({ to_time: T0 + 15 }).deals;
    expect([a!.status.initial, a!.pnl_unrealized.initial, a!.trades_number.initial]).toEqual(['open', 0, 1]);
    expect(a!.status.following).toBe('open');
    expect(b!.id).toBe(2);
    // Without to_time: A closed at 3 (realized 2); the second A deal is worth 5 − 1 = 4.
    const [a2, , a1] = read({}).deals;
    expect([a1!.pnl_realized.initial, a2!.pnl_unrealized.initial]).toEqual([2, 4]);
  });

  it('gives no deals for an address without any', () => {
    expect(read({}).deals.length).toBe(3);
    expect(checked(WalletDealsResultSchema, walletDeals(index, 'Nobody', { network: 'sol' }))).toEqual({
      deals: [],
      page: { current: 1, per_page: 30 },
    });
  });
});
