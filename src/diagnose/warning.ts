import { z } from 'zod';

/**
 * A warning: an answer that is computed correctly but is probably not what the caller meant
 * (a followed wallet with no swap, a window beside the tape, …). Warnings never change the
 * answer; `copysim simulate --strict` turns them into errors.
 */
export const WarningSchema = z.strictObject({
  code: z.enum([
    'empty_tape',
    'window_outside_tape',
    'wallet_not_in_tape',
    'wallet_not_in_window',
    'no_follower_trade',
    'price_far_from_market',
    'unknown_liquidity',
  ]),
  /** What is probably wrong, where, and how to fix it. */
  message: z.string(),
  /** The followed wallets the warning is about, as the request spells them (one warning a code). */
  wallets: z.array(z.string()).optional(),
  /** The tape's swaps the warning is about, by their index in the tape's `swaps`. */
  swaps: z.array(z.number().int().min(0)).optional(),
});
/** One warning of {@link diagnose}. */
export type Warning = z.infer<typeof WarningSchema>;
export type WarningCode = Warning['code'];

/** The service's header carrying the warnings of a simulation as a JSON array (absent when none). */
export const WARNINGS_HEADER = 'X-Copysim-Warnings';
