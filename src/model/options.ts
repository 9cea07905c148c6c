import { z } from 'zod';
import { formatPath, InputError } from './errors.js';

const nonNegative = z.number().finite().gte(0);

/** Engine options (model 1.3): not part of the request; every name optional. */
export const EngineOptionsSchema = z
  .object({
    bot_fee_percent: nonNegative.optional(),
    base_fee_native: z.object({ sol: nonNegative.optional(), eth: nonNegative.optional() }).strict().optional(),
    unknown_liquidity_slippage_percent: nonNegative.optional(),
  })
  .strict();

/** Engine options as given: any name may be left out. */
export type EngineOptionsInput = z.input<typeof EngineOptionsSchema>;

/** Engine options with every default filled in. */
export interface EngineOptions {
  readonly bot_fee_percent: number;
  readonly base_fee_native: { readonly sol: number; readonly eth: number };
  readonly unknown_liquidity_slippage_percent: number;
}

/** The model's defaults (1.3). */
export const DEFAULT_ENGINE_OPTIONS: EngineOptions = Object.freeze({
  bot_fee_percent: 1,
  base_fee_native: Object.freeze({ sol: 0.000005, eth: 0.002 }),
  unknown_liquidity_slippage_percent: 1,
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
  };
}
