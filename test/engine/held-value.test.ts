/**
 * The copier's held value (src/engine/held-value.ts): `exact()` is the model's sum over the open
 * deals in the order they opened, and a snapshot, made after later trades, price moves, openings
 * and closings, gives the sum of the moment it was taken.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Deal } from '../../src/engine/deal.js';
import { HeldValue } from '../../src/engine/held-value.js';
import { KnownPrices } from '../../src/engine/known-prices.js';
import { Decimal40 } from '../../src/numeric/decimal40.js';

/** What `HeldValue` reads of a deal: its token, position and whether it is open. */
interface FakeDeal {
  tokenId: number;
  qty: Decimal40;
  invested: Decimal40;
  open: boolean;
}

const decimalArb = fc
  .tuple(fc.integer({ min: 1, max: 999_999 }), fc.integer({ min: -12, max: 3 }))
  .map(([units, exponent]) => `${units}e${exponent}`);

/** Open, trade, re-price, close one of four tokens' deals, or take a snapshot. */
const stepArb = fc.oneof(
  fc.record({ kind: fc.constant('trade' as const), token: fc.nat(3), value: decimalArb }),
  fc.record({ kind: fc.constant('price' as const), token: fc.nat(3), value: decimalArb }),
  fc.record({ kind: fc.constant('close' as const), token: fc.nat(3) }),
  fc.record({ kind: fc.constant('snapshot' as const) }),
);

describe("the copier's held value: snapshots", () => {
  it('make the exact sum of the moment they were taken (fast-check)', () => {
    fc.assert(
      // Up to 200 steps: enough closes for the held value to sweep its closed deals out.
      fc.property(fc.array(stepArb, { maxLength: 200 }), (steps) => {
        const prices = new KnownPrices();
        const held = new HeldValue(prices, false);
        const open = new Map<number, FakeDeal>();
        const taken: { make: () => Decimal40; exact: string }[] = [];
        for (const step of steps) {
          if (step.kind === 'snapshot') {
            // The model's sum: the open deals in the order they opened, each product and addition rounded.
            let sum = new Decimal40(0);
            for (const d of open.values()) sum = sum.plus(d.qty.times(prices.priceOf(d.tokenId)));
            expect(held.exact().toString()).toBe(sum.toString());
            taken.push({ make: held.snapshot(), exact: sum.toString() });
            continue;
          }
          let deal = open.get(step.token);
          if (step.kind === 'price') {
            prices.observe(step.token, { time: 0, usd_price: step.value } as never);
            if (deal !== undefined) held.priceMoved(step.token);
          } else if (step.kind === 'close') {
            if (deal === undefined) continue;
            open.delete(step.token);
            deal.open = false;
            held.closed(deal as unknown as Deal);
          } else {
            // A trade needs a known price: the first one sets 1.
            if (deal === undefined) {
              prices.observe(step.token, { time: 0, usd_price: '1' } as never);
              deal = { tokenId: step.token, qty: new Decimal40(0), invested: new Decimal40(0), open: true };
              open.set(step.token, deal);
              held.opened(deal as unknown as Deal);
            }
            deal.qty = new Decimal40(step.value);
            held.traded(deal as unknown as Deal);
          }
        }
        for (const { make, exact } of taken) expect(make().toString()).toBe(exact);
      }),
      { numRuns: 300, seed: 47 },
    );
  });

  it('keep the open deals in their order through many closings (hand-computed)', () => {
    const prices = new KnownPrices();
    const held = new HeldValue(prices, false);
    const deal = (tokenId: number, qty: string): FakeDeal => {
      const d = { tokenId, qty: new Decimal40(qty), invested: new Decimal40(0), open: true };
      prices.observe(tokenId, { time: 0, usd_price: '2' } as never);
      held.opened(d as unknown as Deal);
      held.traded(d as unknown as Deal);
      return d;
    };
    // Token 0's deal holds 5e19 tokens, token 2's 3 and token 3's 4, each at 2 USD.
    deal(0, '5e19');
    const before = held.snapshot();
    // Deals of token 1 open and close one after the other, 50 before token 2's deal opens and 50
    // after: the held value sweeps them out around the deals that stay open.
    const churn = (): void => {
      for (let k = 0; k < 50; k++) {
        const d = deal(1, '7');
        d.open = false;
        held.closed(d as unknown as Deal);
      }
    };
    churn();
    deal(2, '3');
    churn();
    deal(3, '4');
    // 5e19 × 2 + 3 × 2 + 4 × 2 = 100000000000000000014, added in deal order.
    expect(held.exact().toString()).toBe('100000000000000000014');
    expect(before().toString()).toBe('100000000000000000000');
    expect(held.snapshot()().toString()).toBe('100000000000000000014');
  });
});
