/**
 * Refusals are values with a code and a plain message for staff (SPEC §10). They travel as
 * `BrickWorkError` inside the core (so a refusal unwinds a transaction) and as `ErrorValue` across
 * every boundary: CLI output, the API contract, the screen. Never a stack trace.
 */
export const ERROR_CODES = [
  'not-a-store',
  'store-too-new',
  'store-too-old',
  'needs-upgrade',
  'parse-error',
  'duplicate-document',
  'header-mismatch',
  'currency-mismatch',
  'lines-do-not-pair',
  'busy',
  'budget-exhausted',
  'not-found',
  'no-credentials',
  'source-error',
  'invalid-argument',
  'internal',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export interface ErrorValue {
  readonly code: ErrorCode;
  readonly message: string;
}

export class BrickWorkError extends Error implements ErrorValue {
  override readonly name = 'BrickWorkError';
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
  }

  toValue(): ErrorValue {
    return { code: this.code, message: this.message };
  }
}

export function isBrickWorkError(e: unknown): e is BrickWorkError {
  return e instanceof BrickWorkError;
}

/** Anything thrown, as a value fit to show: our refusals as they are, the unexpected as `internal`. */
export function toErrorValue(e: unknown): ErrorValue {
  if (isBrickWorkError(e)) return e.toValue();
  const detail = e instanceof Error ? e.message : String(e);
  return { code: 'internal', message: `Something went wrong inside brick-work: ${detail}` };
}
