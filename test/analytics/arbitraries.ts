/**
 * Small generated tapes for the analytics properties: a few wallets and tokens, equal times,
 * sells of part, all or more than the holdings, sells with nothing held, optional usd_amount
 * and liquidity, and on `eth` wallet addresses spelled in either case.
 */
import fc from 'fast-check';
import type { Network, TapeInput } from '../../src/index.js';
import { T0 } from './support.js';

type SwapInput = TapeInput['swaps'][number];

interface Step {
  readonly wallet: number;
  readonly token: number;
  readonly kind: 'buy' | 'sell-part' | 'sell-all' | 'sell-over';
  readonly gap: number;
  readonly quantity: number;
  readonly price: number;
  readonly usdAmount: number | null;
  readonly liquidity: number | null;
  readonly upper: boolean;
}

const stepArb: fc.Arbitrary<Step> = fc.record({
  wallet: fc.integer({ min: 0, max: 3 }),
  token: fc.integer({ min: 0, max: 2 }),
  kind: fc.constantFrom<Step['kind']>('buy', 'buy', 'sell-part', 'sell-all', 'sell-over'),
  gap: fc.constantFrom(0, 0, 60, 600, 3600),
  quantity: fc.integer({ min: 1, max: 5000 }),
  price: fc.integer({ min: 1, max: 900 }),
  usdAmount: fc.option(fc.integer({ min: 1, max: 5000 }), { freq: 4 }),
  liquidity: fc.option(fc.integer({ min: 1000, max: 500_000 }), { freq: 2 }),
  upper: fc.boolean(),
});

function wallet(network: Network, n: number, upper: boolean): string {
  if (network === 'sol') return `Wal${n}let${'x'.repeat(30)}`;
  const hex = `0x${'ab'.repeat(19)}${n}f`;
  return upper ? `0x${hex.slice(2).toUpperCase()}` : hex;
}

function token(network: Network, n: number): string {
  return network === 'sol' ? `Tok${n}en${'y'.repeat(30)}` : `0x${'cd'.repeat(19)}${n}e`;
}

/** The wallet addresses a generated tape may hold (as queries spell them). */
export function walletAddresses(network: Network): string[] {
  return [0, 1, 2, 3].map((n) => wallet(network, n, false));
}

/** A generated tape. */
export const tapeArb: fc.Arbitrary<TapeInput> = fc
  .record({
    network: fc.constantFrom<Network>('sol', 'eth'),
    steps: fc.array(stepArb, { minLength: 1, maxLength: 40 }),
  })
  .map(({ network, steps }) => {
    const held = new Map<string, number>();
    let time = T0;
    const swaps: SwapInput[] = steps.map((s) => {
      time += s.gap;
      const key = `${s.wallet}:${s.token}`;
      const h = held.get(key) ?? 0;
      const quantity =
        s.kind === 'buy' || s.kind === 'sell-part' || h === 0
          ? s.quantity / 10
          : s.kind === 'sell-all'
            ? h
            : h + s.quantity / 10;
      const type = s.kind === 'buy' ? 'buy' : 'sell';
      held.set(key, type === 'buy' ? h + quantity : Math.max(0, h - quantity));
      return {
        wallet: wallet(network, s.wallet, s.upper),
        token: token(network, s.token),
        type,
        time,
        quantity,
        usd_price: s.price / 100,
        ...(s.usdAmount === null ? {} : { usd_amount: s.usdAmount / 10 }),
        ...(s.liquidity === null ? {} : { usd_liquidity: s.liquidity }),
      };
    });
    return {
      network,
      tokens: { [token(network, 0)]: { name: 'Zero Token', symbol: 'ZRO', created_at: T0 - 100 } },
      native_prices: [
        [T0 - 1000, 100],
        [T0 + 7200, 120],
      ],
      swaps,
    };
  });
