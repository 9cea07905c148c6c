/**
 * Where the engine departs from the reference model (test/reference/) on one input, as the golden
 * comparison sees it: shared by the reference, precision and strategy property tests.
 */
import { Decimal } from 'decimal.js';
import {
  InputError,
  simulate,
  type EngineOptionsInput,
  type SimulatorRequestInput,
  type TapeInput,
} from '../../src/index.js';
import type { Arithmetic } from '../reference/decimal.js';
import { referenceSimulate, ReferenceInputError } from '../reference/model.js';
import { compareGolden } from '../support/golden.js';

/**
 * The reference's arithmetic: by default the engine's (docs/model.md §14 (i)), 40 significant
 * digits, half to even. `COPYSIM_REFERENCE_DIGITS` (and `COPYSIM_REFERENCE_ROUNDING=half_up`)
 * run the reference at another precision against the same engine: the precision scan of
 * docs/model.md §15. Since model 1.1's dust rule, the digits no longer decide whether a deal at
 * the cap makes one more buy, so 30, 40 and 60 digits give the same responses.
 */
const REFERENCE_ARITHMETIC = {
  precision: Number(process.env.COPYSIM_REFERENCE_DIGITS ?? 40),
  rounding: process.env.COPYSIM_REFERENCE_ROUNDING === 'half_up' ? Decimal.ROUND_HALF_UP : Decimal.ROUND_HALF_EVEN,
} as const;

/** What the engine and the reference make of one input: the response, or exit 1. */
export type Outcome = { readonly body: unknown } | { readonly refused: string };

export function engineOutcome(tape: TapeInput, request: SimulatorRequestInput, options: EngineOptionsInput): Outcome {
  try {
    return { body: JSON.parse(JSON.stringify(simulate(tape, request, options))) };
  } catch (e) {
    if (e instanceof InputError) return { refused: e.message };
    throw e;
  }
}

/** The reference's answer, at `arithmetic` (default: the engine's, or the environment's, see above). */
export function referenceOutcome(
  tape: TapeInput,
  request: SimulatorRequestInput,
  options: EngineOptionsInput,
  arithmetic: Arithmetic = REFERENCE_ARITHMETIC,
): Outcome {
  try {
    return { body: referenceSimulate(tape, request, options, arithmetic) };
  } catch (e) {
    if (e instanceof ReferenceInputError) return { refused: e.message };
    throw e;
  }
}

/** Where the engine departs from the reference on one input (empty when they agree). */
export function departures(tape: TapeInput, request: SimulatorRequestInput, options: EngineOptionsInput): string[] {
  const expected = referenceOutcome(tape, request, options);
  const actual = engineOutcome(tape, request, options);
  if ('refused' in expected)
    return 'refused' in actual ? [] : [`the reference refuses the input (${expected.refused}) but the engine answers`];
  if ('refused' in actual) return [`the engine refuses the input (${actual.refused}) but the reference answers`];
  return compareGolden(expected.body, actual.body);
}
