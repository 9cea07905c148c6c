/**
 * fast-check arbitraries for whole simulation scenarios: a valid tape, a valid simulator request
 * and engine options, covering every feature of the model: several leaders and market wallets,
 * tokens with and without liquidity and metadata, equal timestamps, swaps before and after the
 * window, sells larger than holdings, every request setting on and off, caps that bind,
 * time-fixes due exactly at a swap or at `window_end`, and (on `eth`) addresses spelled in
 * another case than the request's.
 */
import fc from 'fast-check';
import type { EngineOptionsInput, Network, SimulatorRequestInput, TapeInput } from '../../src/index.js';

/** One generated input of `simulate`. */
export interface Scenario {
  readonly tape: TapeInput;
  readonly request: SimulatorRequestInput;
  readonly options: EngineOptionsInput;
}

/** 2024-03-10 00:00:00 UTC: the first day of every generated window. */
export const WINDOW_START = 1_710_028_800;
const DAY = 86_400;
const HALF_HOUR = 1_800;

type SwapInput = TapeInput['swaps'][number];

/** Addresses per network: base58-like on `sol`, hex on `eth`. */
function address(network: Network, kind: 'L' | 'M' | 'T', n: number): string {
  if (network === 'sol') return `${kind}${n}${'x'.repeat(30)}${kind}${n}`;
  const code = { L: 'a1', M: 'b2', T: 'c3' }[kind];
  return `0x${code}${String(n).padStart(2, '0')}${'0'.repeat(34)}`;
}

/** On `eth` an address may be spelled in upper case in the tape: it must still match. */
function spell(network: Network, addr: string, upper: boolean): string {
  return network === 'eth' && upper ? `0x${addr.slice(2).toUpperCase()}` : addr;
}

/** A decimal as a tape may carry it: a JSON number or a decimal string. */
function decimal(cents: number, asString: boolean): number | string {
  const value = cents / 100;
  return asString ? value.toString() : value;
}

/**
 * Times on a half-hour grid from one day before the window to one day after it (many equal
 * timestamps, time-fix deadlines that coincide with swaps), plus the window's edges and times
 * whose time-fix falls due exactly at `window_end`.
 */
function timeArb(days: number): fc.Arbitrary<number> {
  const end = WINDOW_START + days * DAY - 1;
  const special = [WINDOW_START - 1, WINDOW_START, end, end + 1, end - 3_600, end - 7_200, end - 3 * 3_600];
  const grid = (min: number, max: number): fc.Arbitrary<number> =>
    fc.integer({ min, max }).map((k) => WINDOW_START + k * HALF_HOUR);
  return fc.oneof(
    { weight: 14, arbitrary: grid(0, days * 48 - 1) },
    { weight: 3, arbitrary: grid(-48, days * 48 + 48) },
    { weight: 3, arbitrary: fc.constantFrom(...special) },
  );
}

interface Shape {
  readonly network: Network;
  readonly days: number;
  readonly leaders: number;
  readonly markets: number;
  readonly tokens: number;
  /** Which tokens carry liquidity on their swaps. */
  readonly liquid: readonly boolean[];
}

const shapeArb: fc.Arbitrary<Shape> = fc
  .record({
    network: fc.constantFrom<Network>('sol', 'eth'),
    days: fc.integer({ min: 1, max: 2 }),
    leaders: fc.integer({ min: 1, max: 3 }),
    markets: fc.integer({ min: 0, max: 2 }),
    tokens: fc.integer({ min: 1, max: 4 }),
  })
  .chain((s) =>
    fc.array(fc.boolean(), { minLength: s.tokens, maxLength: s.tokens }).map((liquid) => ({ ...s, liquid })),
  );

function swapArb(shape: Shape): fc.Arbitrary<SwapInput> {
  const { network } = shape;
  const wallets = [
    ...Array.from({ length: shape.leaders }, (_, i) => address(network, 'L', i)),
    ...Array.from({ length: shape.markets }, (_, i) => address(network, 'M', i)),
  ];
  return fc
    .record({
      wallet: fc.constantFrom(...wallets),
      upper: fc.boolean(),
      token: fc.integer({ min: 0, max: shape.tokens - 1 }),
      type: fc.constantFrom<'buy' | 'sell'>('buy', 'sell'),
      time: timeArb(shape.days),
      // 0.01 .. 2000 tokens, and prices from 0.01 to 50 USD: leader buys of 0.0001 to 100000 USD.
      quantityCents: fc.integer({ min: 1, max: 200_000 }),
      priceCents: fc.integer({ min: 1, max: 5_000 }),
      asString: fc.boolean(),
      amount: fc.oneof(
        fc.constant<'absent' | 'product' | 'other'>('absent'),
        fc.constantFrom<'product' | 'other'>('product', 'other'),
      ),
      liquidityCents: fc.option(fc.integer({ min: 100_000, max: 50_000_000 }), { nil: null }),
      hash: fc.option(fc.integer({ min: 0, max: 1_000 }), { nil: undefined }),
    })
    .map((r) => {
      const token = address(network, 'T', r.token);
      const swap: SwapInput = {
        wallet: spell(network, r.wallet, r.upper),
        token: spell(network, token, r.upper && r.token % 2 === 1),
        type: r.type,
        time: r.time,
        quantity: decimal(r.quantityCents, r.asString),
        usd_price: decimal(r.priceCents, !r.asString),
      };
      if (r.amount === 'product') swap.usd_amount = (r.quantityCents * r.priceCents) / 10_000;
      if (r.amount === 'other') swap.usd_amount = decimal(r.quantityCents + r.priceCents, r.asString);
      // Liquid tokens carry a liquidity on most swaps; null on some (the known one then applies).
      if (shape.liquid[r.token]) swap.usd_liquidity = r.liquidityCents === null ? null : r.liquidityCents / 100;
      if (r.hash !== undefined) swap.transaction_hash = `tx${r.hash}`;
      return swap;
    });
}

function tokensArb(shape: Shape): fc.Arbitrary<TapeInput['tokens']> {
  const meta = fc.option(
    fc.record({
      name: fc.option(fc.constantFrom('Alpha', 'Beta', 'Gamma'), { nil: null }),
      symbol: fc.option(fc.constantFrom('ALP', 'BET', 'GAM'), { nil: null }),
    }),
    { nil: undefined },
  );
  return fc.array(meta, { minLength: shape.tokens, maxLength: shape.tokens }).map((metas) => {
    const tokens: NonNullable<TapeInput['tokens']> = {};
    metas.forEach((m, i) => {
      if (m !== undefined) tokens[address(shape.network, 'T', i)] = m;
    });
    return tokens;
  });
}

function nativePricesArb(shape: Shape): fc.Arbitrary<[number, number | string][]> {
  const point = fc.tuple(timeArb(shape.days), fc.integer({ min: 1_000, max: 500_000 }), fc.boolean());
  return fc
    .array(point, { minLength: 1, maxLength: 4 })
    .map((points) => points.map(([t, cents, s]) => [t, decimal(cents, s)] as [number, number | string]));
}

function requestArb(shape: Shape): fc.Arbitrary<SimulatorRequestInput> {
  const leaders = Array.from({ length: shape.leaders }, (_, i) => address(shape.network, 'L', i));
  const from = new Date(WINDOW_START * 1000).toISOString().slice(0, 10);
  const to = new Date((WINDOW_START + (shape.days - 1) * DAY) * 1000).toISOString().slice(0, 10);
  return fc
    .record({
      // Every leader is followed, plus sometimes a wallet absent from the tape.
      extra: fc.boolean(),
      buy_percentage: fc.integer({ min: 1, max: 200 }),
      // Small values make the caps bind; large ones leave them loose.
      max_buy_amount: fc.oneof(fc.integer({ min: 1, max: 200 }), fc.constant(1_000_000)),
      max_position_amount: fc.oneof(fc.integer({ min: 1, max: 500 }), fc.constant(10_000_000)),
      priority_fee: fc.constantFrom(0, 0.0001, 0.001),
      bribe: fc.constantFrom(0, 0.00005, 0.002),
      max_dupe_buy_times: fc.integer({ min: 0, max: 3 }),
      close_all: fc.option(fc.boolean(), { nil: undefined }),
      inactivity_time_fix: fc.option(fc.option(fc.record({ hours: fc.integer({ min: 1, max: 6 }) }), { nil: null }), {
        nil: undefined,
      }),
      include_bot_fees: fc.option(fc.boolean(), { nil: undefined }),
    })
    .map(({ extra, ...r }) => {
      const request: SimulatorRequestInput = {
        wallets: extra ? [...leaders, address(shape.network, 'L', 9)] : leaders,
        network: shape.network,
        from_date: from,
        to_date: to,
        buy_percentage: r.buy_percentage,
        max_buy_amount: r.max_buy_amount,
        max_position_amount: r.max_position_amount,
        priority_fee: r.priority_fee,
        bribe: r.bribe,
        max_dupe_buy_times: r.max_dupe_buy_times,
      };
      // Optional settings are sometimes left out, so their defaults are exercised too.
      if (r.close_all !== undefined) request.close_all = r.close_all;
      if (r.inactivity_time_fix !== undefined) request.inactivity_time_fix = r.inactivity_time_fix;
      if (r.include_bot_fees !== undefined) request.include_bot_fees = r.include_bot_fees;
      return request;
    });
}

const optionsArb: fc.Arbitrary<EngineOptionsInput> = fc.oneof(
  fc.constant({}),
  fc.record(
    {
      // Decimal strings too, and rates whose products run past 40 digits.
      bot_fee_percent: fc.constantFrom<number | string>(0, 0.5, 1, 2.5, '1.5', '0.7', '0.123456789012345678901'),
      base_fee_native: fc.record(
        { sol: fc.constantFrom<number | string>(0, 0.000005, 0.001, '0.0000073'), eth: fc.constantFrom(0, 0.002) },
        { requiredKeys: [] },
      ),
      unknown_liquidity_slippage_percent: fc.constantFrom<number | string>(0, 1, 3, '0.7'),
    },
    { requiredKeys: [] },
  ),
);

/** Settings a property may pin, e.g. `{ close_all: true }`. */
export type RequestOverrides = Partial<SimulatorRequestInput>;

/**
 * A whole scenario: tape (up to `maxSwaps` swaps), request and engine options. `overrides`
 * pins request settings for properties that hold only under them.
 *
 * @example
 * fc.assert(fc.property(scenarioArb({ close_all: true }), (s) => checkCloseAll(simulate(s.tape, s.request, s.options))));
 */
export function scenarioArb(overrides: RequestOverrides = {}, maxSwaps = 40): fc.Arbitrary<Scenario> {
  return shapeArb.chain((shape) =>
    fc
      .record({
        swaps: fc.array(swapArb(shape), { minLength: 0, maxLength: maxSwaps, size: 'max' }),
        tokens: tokensArb(shape),
        native_prices: nativePricesArb(shape),
        request: requestArb(shape),
        options: optionsArb,
      })
      .map(({ request, options, ...tape }) => ({
        tape: { network: shape.network, ...tape },
        request: { ...request, ...overrides },
        options,
      })),
  );
}

/** Extra swaps that must not change a result: all strictly after `window_end`. */
export function lateSwapsArb(scenario: Scenario): fc.Arbitrary<SwapInput[]> {
  const end = windowEnd(scenario.request);
  const wallets = [...new Set(scenario.tape.swaps.map((s) => s.wallet)), 'M-late'];
  const tokens = [...new Set(scenario.tape.swaps.map((s) => s.token)), 'T-late'];
  return fc.array(
    fc.record({
      wallet: fc.constantFrom(...wallets),
      token: fc.constantFrom(...tokens),
      type: fc.constantFrom<'buy' | 'sell'>('buy', 'sell'),
      time: fc.integer({ min: end + 1, max: end + DAY }),
      quantity: fc.integer({ min: 1, max: 1_000 }),
      usd_price: fc.integer({ min: 1, max: 1_000 }),
    }),
    { minLength: 1, maxLength: 8 },
  );
}

/** `window_end` of a generated request (its `to_date` 23:59:59 UTC). */
export function windowEnd(request: SimulatorRequestInput): number {
  return Date.parse(`${request.to_date}T23:59:59Z`) / 1000;
}

/**
 * A `strategy` member (strategy extensions, model 2.0) with every setting sometimes on: delays
 * on and off the swaps' half-hour grid (so delayed copies fall due with swaps and time-fixes),
 * filters that bind, take-profit ladders, stop losses and trailing stops near the generated
 * price moves, max-hold exits of a few hours, the skip log.
 */
export const strategyArb: fc.Arbitrary<NonNullable<SimulatorRequestInput['strategy']>> = fc
  .record(
    {
      copy_delay_seconds: fc.constantFrom(0, 1, 30, 600, HALF_HOUR, 2 * HALF_HOUR),
      fixed_buy_amount: fc.option(fc.integer({ min: 1, max: 300 }), { nil: null }),
      min_leader_buy_usd: fc.constantFrom(0, 5, 50, 500),
      min_liquidity_usd: fc.option(fc.constantFrom(0, 100, 1_000, 50_000), { nil: null }),
      max_token_age_hours: fc.option(fc.integer({ min: 1, max: 30 }), { nil: null }),
      take_profit: fc
        .uniqueArray(fc.integer({ min: 1, max: 400 }), { maxLength: 3 })
        .chain((rois) =>
          fc.tuple(
            ...[...rois]
              .sort((a, b) => a - b)
              .map((roi) => fc.constantFrom(10, 25, 50, 100).map((sell_percent) => ({ roi, sell_percent }))),
          ),
        ),
      stop_loss_percent: fc.option(fc.constantFrom(5, 20, 50, 90), { nil: null }),
      trailing_stop_percent: fc.option(fc.constantFrom(5, 20, 50, 90), { nil: null }),
      max_hold_hours: fc.option(fc.integer({ min: 1, max: 8 }), { nil: null }),
      report_skipped: fc.boolean(),
    },
    { requiredKeys: [] },
  )
  .map((strategy) => strategy as NonNullable<SimulatorRequestInput['strategy']>);

/** A scenario whose request carries a generated strategy. */
export function strategyScenarioArb(maxSwaps = 40): fc.Arbitrary<Scenario> {
  return fc
    .tuple(scenarioArb({}, maxSwaps), strategyArb)
    .map(([s, strategy]) => ({ ...s, request: { ...s.request, strategy } }));
}

/**
 * The members of the copier's wallet (model 3.0) with every rule sometimes on: balances that
 * bind and that do not, a reserve, few open deals, tolerances around the generated slippage,
 * failures, retries, sandwiches, seeds, the two reports.
 */
export const copierArb: fc.Arbitrary<Record<string, unknown>> = fc
  .record(
    {
      starting_balance_usd: fc.option(fc.constantFrom(50, 300, 2_000, 1e6), { nil: null }),
      max_open_deals: fc.option(fc.integer({ min: 1, max: 3 }), { nil: null }),
      slippage_tolerance_percent: fc.option(fc.constantFrom(0.5, 1, 5, 30), { nil: null }),
      failed_transaction_percent: fc.constantFrom(0, 5, 29.6, 70),
      retries: fc.integer({ min: 0, max: 3 }),
      retry_delay_seconds: fc.constantFrom(1, 2, 600, HALF_HOUR),
      random_seed: fc.integer({ min: 0, max: 2 ** 40 }),
      report_wallet: fc.boolean(),
      report_leaders: fc.boolean(),
    },
    { requiredKeys: [] },
  )
  .chain((wallet) => {
    const withBalance = wallet.starting_balance_usd !== undefined && wallet.starting_balance_usd !== null;
    const withTolerance = wallet.slippage_tolerance_percent !== undefined && wallet.slippage_tolerance_percent !== null;
    return fc
      .record({
        reserve: withBalance ? fc.constantFrom(0, 10, 100) : fc.constant(undefined),
        sandwich: withTolerance ? fc.constantFrom(0, 20, 100) : fc.constant(undefined),
      })
      .map(({ reserve, sandwich }) => ({
        ...wallet,
        ...(reserve === undefined ? {} : { reserve_usd: reserve }),
        ...(sandwich === undefined ? {} : { sandwich_percent: sandwich }),
      }));
  });

/** A scenario whose request carries a generated strategy and copier's wallet, and sometimes model 1.2's options. */
export function copierScenarioArb(maxSwaps = 40): fc.Arbitrary<Scenario> {
  return fc
    .tuple(
      strategyScenarioArb(maxSwaps),
      copierArb,
      fc.option(fc.constantFrom(1_000, 50_000), { nil: undefined }),
      fc.option(fc.constantFrom(1, 20, 200), { nil: undefined }),
    )
    .map(([s, wallet, assumed, minPrice]) => ({
      ...s,
      request: { ...s.request, strategy: { ...s.request.strategy, ...wallet } } as SimulatorRequestInput,
      options: {
        ...s.options,
        ...(assumed === undefined ? {} : { assumed_liquidity_usd: assumed }),
        ...(minPrice === undefined ? {} : { min_price_swap_usd: minPrice }),
      },
    }));
}
