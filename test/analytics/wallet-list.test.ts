/**
 * The wallets list (4.6): who is listed, sorting, ties, filters, paging. Each wallet Xi makes
 * closed deals in token A of 10 tokens bought @ 1 and sold @ 1 + r/10: realized r each.
 */
import { describe, expect, it } from 'vitest';
import { RequestError, type TapeInput } from '../../src/index.js';
import { buildAnalyticsIndex, ListWalletsResultSchema, listWallets, walletIndicators } from '../../src/analytics.js';
import { followWallets } from '../../src/analytics/following.js';
import { A, buy, checked, FLAT, sell, solTape, T0 } from './support.js';

type SwapInput = TapeInput['swaps'][number];

/** A closed deal of `wallet` at `time` realizing `r` USD. */
function deal(wallet: string, time: number, r: number): SwapInput[] {
  return [buy(wallet, A, time, 10, 1), sell(wallet, A, time + 1, 10, 1 + r / 10)];
}

const index = buildAnalyticsIndex(
  solTape([
    ...deal('X1', T0, 5),
    ...deal('X2', T0 + 10, 10),
    ...deal('X3', T0 + 20, 5),
    ...deal('X4', T0 + 30, -1.5),
    ...deal('X4', T0 + 40, -1.5),
    sell('X5', A, T0 + 50, 1, 1), // no deal: not listed
  ]),
  FLAT,
);
const list = (body: unknown) => checked(ListWalletsResultSchema, listWallets(index, body));
const addresses = (body: unknown) => list(body).wallets.map((w) => w.address);

describe('the wallets list', () => {
  it.each([
    [{}, ['X2', 'X1', 'X3', 'X4']], // pnl_total over 1m, descending; X1 and X3 tie at 5: by address
    [undefined, ['X2', 'X1', 'X3', 'X4']],
    [{ order: 'asc' }, ['X4', 'X1', 'X3', 'X2']], // ties stay by address
    [{ sort_by: { indicator: 'deals_number', period: 'all' } }, ['X4', 'X1', 'X2', 'X3']],
    [{ sort_by: { indicator: 'winrate' } }, ['X1', 'X2', 'X3', 'X4']], // 100, 100, 100, 0
    [{ min_deals: 2 }, ['X4']],
    [{ min_deals: '0' }, ['X2', 'X1', 'X3', 'X4']], // a wallet needs a deal to be listed at all
    [{ network: 'sol', page: 2 }, []],
  ])('%j → %j', (body, expected) => {
    expect(addresses(body)).toEqual(expected);
  });

  it('gives each wallet its indicator map, the same as the indicators read', () => {
    const [first] = list({}).wallets;
    expect(first).toMatchObject({ address: 'X2', network: 'sol' });
    expect(first!.indicators).toEqual(walletIndicators(index, 'X2', { network: 'sol' }).indicators);
    expect(first!.indicators.pnl_total['1m']).toEqual({ initial: 10, following: 10 });
  });

  it('30 wallets a page', () => {
    const many = buildAnalyticsIndex(
      solTape(Array.from({ length: 35 }, (_, i) => deal(`Y${String(i).padStart(2, '0')}`, T0 + i * 10, i)).flat()),
    );
    const page = (n: number) => listWallets(many, { page: n });
    expect(page(1).wallets.length).toBe(30);
    expect(page(1).page).toEqual({ current: 1, per_page: 30 });
    // Descending realized 34 … 0: page 2 holds the five lowest.
    expect(page(2).wallets.map((w) => w.address)).toEqual(['Y04', 'Y03', 'Y02', 'Y01', 'Y00']);
  });

  it("sorts by the follower's values: a copier capped at 1,000 USD makes 10 where the wallet made 100", () => {
    // X6 buys 10,000 @ 1 and sells @ 1.01: its own PnL 100; the copier buys at most 1,000 USD
    // (the default max_buy_amount), so it makes 10. X7 buys 500 @ 1 and sells @ 1.05: 25 both.
    const capped = buildAnalyticsIndex(
      solTape([
        buy('X6', A, T0, 10_000, 1),
        sell('X6', A, T0 + 1, 10_000, 1.01),
        buy('X7', A, T0 + 10, 500, 1),
        sell('X7', A, T0 + 11, 500, 1.05),
      ]),
      FLAT,
    );
    const sorted = (body: unknown) => checked(ListWalletsResultSchema, listWallets(capped, body)).wallets;
    const own = sorted({ sort_by: { indicator: 'pnl_total', period: 'all' } });
    expect(own.map((w) => [w.address, w.indicators.pnl_total.all])).toEqual([
      ['X6', { initial: 100, following: 10 }],
      ['X7', { initial: 25, following: 25 }],
    ]);
    const following = sorted({ sort_by: { indicator: 'pnl_total', period: 'all', value: 'following' } });
    expect(following.map((w) => w.address)).toEqual(['X7', 'X6']);
    expect(
      sorted({ sort_by: { indicator: 'pnl_total', period: 'all', value: 'following' }, order: 'asc' }).map(
        (w) => w.address,
      ),
    ).toEqual(['X6', 'X7']);
    // ROI is 1 % and 5 % on both sides: the same order either way.
    expect(
      sorted({ sort_by: { indicator: 'roi_total', period: 'all', value: 'following' } }).map((w) => w.address),
    ).toEqual(['X7', 'X6']);
  });

  it.each([
    [{ network: 'eth' }, 'network'],
    [{ page: 0 }, 'page'],
    [{ order: 'up' }, 'order'],
    [{ sort_by: { indicator: 'pnl', period: '1m' } }, 'sort_by.indicator'],
    [{ sort_by: { indicator: 'pnl_total', period: '2y' } }, 'sort_by.period'],
    [{ sort_by: { indicator: 'pnl_total', value: 'copier' } }, 'sort_by.value'],
    [{ min_deals: -1 }, 'min_deals'],
    [{ per_page: 10 }, 'per_page'],
  ])('rejects %j (path %s)', (body, path) => {
    try {
      listWallets(index, body);
      expect.fail('no RequestError');
    } catch (e) {
      expect(e).toBeInstanceOf(RequestError);
      expect((e as RequestError).body).toMatchObject({ code: 'validation_error', detail: [{ path }] });
    }
  });
});

describe("the followers' walks", () => {
  it('give each wallet the deals of one walk for all, a few wallets a walk', () => {
    const wallets = index.wallets.filter((w) => w !== undefined);
    expect(wallets.map((w) => w.address)).toEqual(['X1', 'X2', 'X3', 'X4', 'X5']);
    const follow = (walletsAWalk: number) =>
      followWallets(index.buckets, wallets, index.buckets.end, index.options, (a) => index.tokenId(a), walletsAWalk);
    const together = follow(Infinity);
    expect(together.map((deals) => deals.length)).toEqual([1, 1, 1, 2, 0]);
    expect(follow(1)).toEqual(together);
    expect(follow(3)).toEqual(together);
  });
});
