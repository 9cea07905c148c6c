import { Decimal as DecimalJs } from 'decimal.js';

/**
 * The decimal type of all money arithmetic: a private clone of decimal.js with 40 significant
 * digits (the model asks for at least 30), so a caller's global Decimal settings never leak in.
 */
export const Decimal = DecimalJs.clone({
  precision: 40,
  rounding: DecimalJs.ROUND_HALF_EVEN,
  toExpNeg: -9e15,
  toExpPos: 9e15,
});
export type Decimal = InstanceType<typeof Decimal>;

/** A decimal as it travels in JSON: a number or a decimal string. */
export type DecimalInput = number | string;

export const ZERO = new Decimal(0);
export const ONE = new Decimal(1);
export const HUNDRED = new Decimal(100);

/** Converts a decimal to the nearest float64 for a JSON response (only at the edge). */
export function toJsonNumber(value: Decimal): number {
  const n = value.toNumber();
  // -0 would print as 0 anyway; normalise so byte-identical output never depends on it.
  return n === 0 ? 0 : n;
}

/** Rounds to a whole number, half away from zero (the model's rule for the deal charts). */
export function roundHalfAwayFromZero(value: Decimal): number {
  return toJsonNumber(value.toDecimalPlaces(0, Decimal.ROUND_HALF_UP));
}

const DECIMAL_STRING = /^\+?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
const HAS_NONZERO_DIGIT = /[1-9]/;

/** True for a decimal string such as "0.0123" or "1e-9" (no sign, no spaces). */
export function isDecimalString(text: string): boolean {
  return DECIMAL_STRING.test(text);
}

/** True for a decimal string whose value is strictly above zero. */
export function isPositiveDecimalString(text: string): boolean {
  if (!DECIMAL_STRING.test(text)) return false;
  const mantissa = text.split(/[eE]/)[0] ?? '';
  return HAS_NONZERO_DIGIT.test(mantissa);
}
