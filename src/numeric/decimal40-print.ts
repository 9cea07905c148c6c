import { Decimal as DecimalJs } from 'decimal.js';
import type { Decimal40Parts } from './decimal40-parts.js';
import { nearestDouble } from './nearest-double.js';

/** A Decimal40 out: as text, as decimal.js prints it with the project's settings, and as a float64. */

/**
 * decimal.js itself at the same settings, a private clone so a caller's global Decimal settings
 * never leak in: the reference `Decimal40` reproduces, and its formatter.
 */
export const DecimalJs40 = DecimalJs.clone({
  precision: 40,
  rounding: DecimalJs.ROUND_HALF_EVEN,
  toExpNeg: -9e15,
  toExpPos: 9e15,
});

const BASE = 1e7;

/** The 40 digits of the coefficient of `d`. */
export function coefficientDigits(d: Decimal40Parts): string {
  // Pairs of limbs make exact 14-digit integers: fewer pieces to pad and join.
  return `${d.c0}${pad14(d.c1 * BASE + d.c2)}${pad14(d.c3 * BASE + d.c4)}${String(d.c5).padStart(7, '0')}`;
}

function pad14(x: number): string {
  return String(x).padStart(14, '0');
}

/** `d` in plain notation, never an exponent, as decimal.js prints with the project's settings. */
export function plainText(d: Decimal40Parts): string {
  if (d.c0 === 0) return '0';
  const digits = coefficientDigits(d).replace(/0+$/, '');
  const exponent = d.e + 40 - digits.length;
  const sign = d.s < 0 ? '-' : '';
  if (exponent >= 0) return sign + digits + '0'.repeat(exponent);
  const point = digits.length + exponent;
  if (point > 0) return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
  return `${sign}0.${'0'.repeat(-point)}${digits}`;
}

/** The float64 nearest to `d`, as decimal.js's `toNumber` gives it. */
export function nearestNumber(d: Decimal40Parts): number {
  if (d.c0 === 0) return 0;
  const nearest = nearestDouble(d.e, d.c0, d.c1, d.c2, d.c3, d.c4, d.c5);
  if (!Number.isNaN(nearest)) return d.s * nearest;
  return Number(`${d.s < 0 ? '-' : ''}${coefficientDigits(d)}e${d.e}`);
}
