import { InputError } from '../../src/model/errors.js';

/** The InputError `f` throws; fails the test when it throws nothing or something else. */
export function inputErrorOf(f: () => unknown): InputError {
  try {
    f();
  } catch (e) {
    if (e instanceof InputError) return e;
    throw e;
  }
  throw new Error('expected an InputError');
}
