/** What the checks share: the run they check, tolerances and small helpers. */
import type { EngineOptionsInput, SimulatorRequestInput, SimulatorResponse, TapeInput } from '../../../src/index.js';

/** What a check needs to know about the run it checks. */
export interface Run {
  readonly tape: TapeInput;
  readonly request: SimulatorRequestInput;
  readonly options: EngineOptionsInput;
  readonly response: SimulatorResponse;
}

/**
 * True when `a` and `b` agree up to float64 rounding: within 1e-9 × `scale`, where `scale` is
 * the largest of 1, |a|, |b| and the given magnitude of the terms that were summed.
 */
export function near(a: number, b: number, magnitude = 0): boolean {
  const scale = Math.max(1, Math.abs(a), Math.abs(b), magnitude);
  return Math.abs(a - b) <= 1e-9 * scale;
}

/** Σ of float64 values. */
export function sum(values: readonly number[]): number {
  return values.reduce((s, v) => s + v, 0);
}

/** Σ of absolute values: the scale of a sum's rounding error. */
export function magnitude(values: readonly number[]): number {
  return values.reduce((s, v) => s + Math.abs(v), 0);
}

export const TIMEFIX_TYPES = new Set(['sell_timefix', 'sell_timefix_final']);
export const isSell = (type: string): boolean => type !== 'buy';

/** The request's window, both ends inclusive (model 1.2). */
export function windowOf(request: SimulatorRequestInput): { start: number; end: number } {
  return {
    start: Date.parse(`${request.from_date}T00:00:00Z`) / 1000,
    end: Date.parse(`${request.to_date}T23:59:59Z`) / 1000,
  };
}
