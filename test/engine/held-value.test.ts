/**
 * The copier's held value (src/engine/held-value.ts): a snapshot, made after later trades, price
 * moves, openings and closings, gives the exact sum of the moment it was taken, as `exact()`
 * gave it then.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Deal } from '../../src/engine/deal.js';
import { HeldValue } from '../../src/engine/held-value.js';
import { KnownPrices } from '../../src/engine/known-prices.js';
import { Decimal40 } from '../../src/numeric/decimal40.js';

/** What `HeldValue` reads of a deal: its token and position. */
interface FakeDeal {
  tokenId: number;
  qty: Decimal40;
  invested: Decimal40;
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
      fc.property(fc.array(stepArb, { maxLength: 60 }), (steps) => {
        const prices = new KnownPrices();
        const held = new HeldValue(prices, false);
        const open = new Map<number, FakeDeal>();
        const taken: { make: () => Decimal40; exact: string }[] = [];
        for (const step of steps) {
          if (step.kind === 'snapshot') {
            taken.push({ make: held.snapshot(), exact: held.exact().toString() });
            continue;
          }
          let deal = open.get(step.token);
          if (step.kind === 'price') {
            prices.observe(step.token, { time: 0, usd_price: step.value } as never);
            if (deal !== undefined) held.priceMoved(step.token);
          } else if (step.kind === 'close') {
            if (deal === undefined) continue;
            open.delete(step.token);
            held.closed(deal as unknown as Deal);
          } else {
            // A trade needs a known price: the first one sets 1.
            if (deal === undefined) {
              prices.observe(step.token, { time: 0, usd_price: '1' } as never);
              deal = { tokenId: step.token, qty: new Decimal40(0), invested: new Decimal40(0) };
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
});
