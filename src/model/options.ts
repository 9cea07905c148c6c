import { z } from 'zod';
import { isDecimalString, type DecimalInput } from '../numeric/decimal.js';
import { formatPath, InputError } from './errors.js';

/**
 * A decimal ≥ 0 as JSON carries it, a finite number or a decimal string (model 8: "Decimals may
 * be JSON numbers or decimal strings"); null, like a missing name, takes the default.
 */
const nonNegative = z
  .custom<DecimalInput>(
    (v) =>
      typeof v === 'number'
        ? Number.isFinite(v) && v >= 0
        : typeof v === 'string' && isDecimalString(v) && Number.isFinite(Number(v)),
    {
      message: 'expected a decimal ≥ 0 (a JSON number or a decimal string)',
    },
  )
  .nullable()
  .optional();

/** A decimal > 0 as JSON carries it; null, like a missing name, takes the default. */
const positive = z
  .custom<DecimalInput>(
    (v) =>
      typeof v === 'number'
        ? Number.isFinite(v) && v > 0
        : typeof v === 'string' && isDecimalString(v) && Number(v) > 0 && Number.isFinite(Number(v)),
    {
      message: 'expected a decimal > 0 (a JSON number or a decimal string)',
    },
  )
  .nullable()
  .optional();

/** Engine options (model 1.3): not part of the request; every name optional. */
export const EngineOptionsSchema = z
  .object({
    bot_fee_percent: nonNegative,
    base_fee_native: z.object({ sol: nonNegative, eth: nonNegative }).strict().nullable().optional(),
    unknown_liquidity_slippage_percent: nonNegative,
    assumed_liquidity_usd: positive,
    min_price_swap_usd: nonNegative,
  })
  .strict();

/** Engine options as given: any name may be left out. */
export type EngineOptionsInput = z.input<typeof EngineOptionsSchema>;

/** Engine options with every default filled in. */
export interface EngineOptions {
  readonly bot_fee_percent: DecimalInput;
  readonly base_fee_native: { readonly sol: DecimalInput; readonly eth: DecimalInput };
  readonly unknown_liquidity_slippage_percent: DecimalInput;
  /** The pool liquidity `L` the slippage formulas use where none is known (model 1.2); null: the flat percent above. */
  readonly assumed_liquidity_usd: DecimalInput | null;
  /** Swaps whose `usd_amount` is below this are no price observations (model 1.2); 0: every swap is one. */
  readonly min_price_swap_usd: DecimalInput;
}

/** The model's defaults (1.3). */
export const DEFAULT_ENGINE_OPTIONS: EngineOptions = Object.freeze({
  bot_fee_percent: 1,
  base_fee_native: Object.freeze({ sol: 0.000005, eth: 0.002 }),
  unknown_liquidity_slippage_percent: 1,
  assumed_liquidity_usd: null,
  min_price_swap_usd: 0,
});

/**
 * Validates engine options and fills in the defaults. Throws an {@link InputError} naming the
 * bad option.
 *
 * @example
 * resolveEngineOptions({ bot_fee_percent: 2 }).base_fee_native.sol; // 0.000005
 */
export function resolveEngineOptions(input: unknown = {}): EngineOptions {
  const parsed = EngineOptionsSchema.safeParse(input ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const path = formatPath(issue.path);
    throw new InputError(`options${path ? `.${path}` : ''}: ${issue.message}`, { source: 'options', path });
  }
  const o = parsed.data;
  return {
    bot_fee_percent: o.bot_fee_percent ?? DEFAULT_ENGINE_OPTIONS.bot_fee_percent,
    base_fee_native: {
      sol: o.base_fee_native?.sol ?? DEFAULT_ENGINE_OPTIONS.base_fee_native.sol,
      eth: o.base_fee_native?.eth ?? DEFAULT_ENGINE_OPTIONS.base_fee_native.eth,
    },
    unknown_liquidity_slippage_percent:
      o.unknown_liquidity_slippage_percent ?? DEFAULT_ENGINE_OPTIONS.unknown_liquidity_slippage_percent,
    assumed_liquidity_usd: o.assumed_liquidity_usd ?? DEFAULT_ENGINE_OPTIONS.assumed_liquidity_usd,
    min_price_swap_usd: o.min_price_swap_usd ?? DEFAULT_ENGINE_OPTIONS.min_price_swap_usd,
  };
}
