/**
 * Metamorphic properties: changes to the input that must leave the output exactly as it was
 * (byte for byte), or move it in one direction only.
 */
import fc from 'fast-check';
import { describe, it } from 'vitest';
import { indexTape, simulate, type SimulatorResponse } from '../../src/index.js';
import { lateSwapsArb, scenarioArb, type Scenario } from '../support/arbitraries.js';
import { checkProperty } from './run.js';

type SwapInput = Scenario['tape']['swaps'][number];

const output = (s: Scenario): string => JSON.stringify(simulate(s.tape, s.request, s.options));
const totalBuys = (r: SimulatorResponse): number =>
  r.deals.reduce((n, d) => n + d.trades.filter((t) => t.type === 'buy').length, 0);

/** Inserts `extra[k]` before position `at[k]` (modulo the length) of `swaps`. */
function insertAt(swaps: readonly SwapInput[], extra: readonly SwapInput[], at: readonly number[]): SwapInput[] {
  const out = [...swaps];
  extra.forEach((swap, k) => out.splice((at[k] ?? 0) % (out.length + 1), 0, swap));
  return out;
}

function differs(a: string, b: string): string[] {
  if (a === b) return [];
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  return [
    `outputs differ at character ${i}: …${a.slice(Math.max(0, i - 80), i + 80)}… vs …${b.slice(Math.max(0, i - 80), i + 80)}…`,
  ];
}

describe('metamorphic properties', () => {
  it('the same input twice gives byte-identical output, indexed once or not', () => {
    checkProperty('deterministic', scenarioArb(), (s) => {
      const once = output(s);
      const indexed = indexTape(s.tape);
      return [...differs(once, output(s)), ...differs(once, JSON.stringify(simulate(indexed, s.request, s.options)))];
    });
  });

  it('adding swaps after window_end changes nothing', () => {
    const arb = scenarioArb().chain((s) =>
      fc
        .record({ late: lateSwapsArb(s), at: fc.array(fc.nat(), { maxLength: 8 }) })
        .map((extra) => ({ ...s, ...extra })),
    );
    checkProperty('late-swaps', arb, (s) =>
      differs(output(s), output({ ...s, tape: { ...s.tape, swaps: insertAt(s.tape.swaps, s.late, s.at) } })),
    );
  });

  it("adding an unfollowed wallet's swaps of a token no deal holds changes nothing", () => {
    const extraArb = fc.array(
      fc.record({
        fresh: fc.boolean(),
        pick: fc.nat(),
        type: fc.constantFrom<'buy' | 'sell'>('buy', 'sell'),
        time: fc.integer({ min: -86_400, max: 3 * 86_400 }),
        quantity: fc.integer({ min: 1, max: 1_000 }),
        usd_price: fc.integer({ min: 1, max: 1_000 }),
        usd_liquidity: fc.option(fc.integer({ min: 1_000, max: 100_000 }), { nil: null }),
      }),
      { minLength: 1, maxLength: 6 },
    );
    const arb = scenarioArb().chain((s) =>
      fc.record({ extra: extraArb, at: fc.array(fc.nat(), { maxLength: 6 }) }).map((e) => ({ ...s, ...e })),
    );
    checkProperty('unfollowed-swaps', arb, (s) => {
      const before = simulate(s.tape, s.request, s.options);
      const key = (a: string): string => (s.tape.network === 'eth' ? a.toLowerCase() : a);
      const held = new Set(before.deals.map((d) => key(d.token.address)));
      const idle = [...new Set(s.tape.swaps.map((w) => w.token))].filter((t) => !held.has(key(t)));
      const followed = new Set(s.request.wallets.map(key));
      const others = [...new Set(s.tape.swaps.map((w) => w.wallet))].filter((w) => !followed.has(key(w)));
      const wallets = [...others, 'Unfollowed1'];
      const swaps: SwapInput[] = s.extra.map((e) => ({
        wallet: wallets[e.pick % wallets.length]!,
        token: e.fresh || idle.length === 0 ? 'FreshToken1' : idle[e.pick % idle.length]!,
        type: e.type,
        time: 1_710_028_800 + e.time,
        quantity: e.quantity,
        usd_price: e.usd_price,
        usd_liquidity: e.usd_liquidity,
      }));
      return differs(
        JSON.stringify(before),
        output({ ...s, tape: { ...s.tape, swaps: insertAt(s.tape.swaps, swaps, s.at) } }),
      );
    });
  });

  it('reordering swaps with distinct times in the input list changes nothing', () => {
    const arb = scenarioArb().chain((s) =>
      fc
        .array(fc.nat(), { minLength: s.tape.swaps.length, maxLength: s.tape.swaps.length })
        .map((keys) => ({ ...s, keys })),
    );
    checkProperty('reorder', arb, (s) => {
      const swaps = s.tape.swaps;
      const shuffled = swaps.map((_, i) => i).sort((a, b) => s.keys[a]! - s.keys[b]! || a - b);
      // Swaps with equal times must keep their relative order: refill each time's slots in input order.
      const queues = new Map<number, number[]>();
      swaps.forEach((w, i) => queues.set(w.time, [...(queues.get(w.time) ?? []), i]));
      const reordered = shuffled.map((i) => swaps[queues.get(swaps[i]!.time)!.shift()!]!);
      return differs(output(s), output({ ...s, tape: { ...s.tape, swaps: reordered } }));
    });
  });

  it('raising max_dupe_buy_times never lowers the number of buys (one leader)', () => {
    // With several leaders it can: see model-limits.test.ts.
    const arb = scenarioArb()
      .map((s) => {
        const leader = s.request.wallets[0]!;
        const key = (a: string): string => (s.tape.network === 'eth' ? a.toLowerCase() : a);
        const others = new Set(s.request.wallets.slice(1).map(key));
        return {
          ...s,
          request: { ...s.request, wallets: [leader] },
          tape: { ...s.tape, swaps: s.tape.swaps.filter((w) => !others.has(key(w.wallet))) },
        };
      })
      .chain((s) => fc.integer({ min: 1, max: 3 }).map((raise) => ({ ...s, raise })));
    checkProperty('dupe-monotone', arb, (s) => {
      const k = s.request.max_dupe_buy_times;
      const low = totalBuys(simulate(s.tape, s.request, s.options));
      const high = totalBuys(simulate(s.tape, { ...s.request, max_dupe_buy_times: k + s.raise }, s.options));
      return high >= low ? [] : [`max_dupe_buy_times ${k} gives ${low} buys, ${k + s.raise} gives ${high}`];
    });
  });
});
