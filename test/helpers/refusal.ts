import { BrickWorkError } from '../../src/vocabulary/errors.ts';

/** The refusal `fn` throws; fails the test when it throws anything else or nothing. */
export function refusalOf(fn: () => unknown): BrickWorkError {
  try {
    fn();
  } catch (e) {
    if (e instanceof BrickWorkError) return e;
    throw e;
  }
  throw new Error('expected a refusal, but nothing was refused');
}
