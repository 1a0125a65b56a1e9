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
  'store-busy',
  'read-only-store',
  'store-damaged',
  'disk-full',
  'parse-error',
  'duplicate-document',
  'header-mismatch',
  'currency-mismatch',
  'lines-do-not-pair',
  'already-undone',
  'busy',
  'budget-exhausted',
  'not-found',
  'nothing-to-undo',
  'nothing-to-redo',
  'step-moved',
  'needs-colour',
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

/** How much of a bad value a message quotes (SPEC §11): enough to recognise it, never the whole of a huge one. */
export const QUOTE_LIMIT = 80;

/** A value as a message quotes it: at most ~80 characters, with "…" where it was cut. */
export function quote(value: string): string {
  const chars = Array.from(value.length > QUOTE_LIMIT * 2 ? value.slice(0, QUOTE_LIMIT * 2) : value);
  return chars.length > QUOTE_LIMIT ? `${chars.slice(0, QUOTE_LIMIT - 1).join('')}…` : chars.join('');
}

/**
 * The store's own troubles — SQLite's result codes and the file system's errno, read by their code
 * strings so this module needs neither — as refusals in plain words (SPEC §10). Null for anything else.
 */
export function storeTrouble(e: unknown, storePath: string | null = null): BrickWorkError | null {
  const code = typeof (e as { code?: unknown } | null)?.code === 'string' ? (e as { code: string }).code : '';
  const where = storePath === null ? 'this store' : `this store (${storePath})`;
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) {
    return new BrickWorkError(
      'store-busy',
      `Another brick-work is writing to ${where} (the app, the command line or a catalogue load); try again in a moment. Nothing was changed.`,
    );
  }
  if (code === 'SQLITE_FULL' || code === 'ENOSPC' || code === 'EDQUOT') {
    return new BrickWorkError(
      'disk-full',
      `The disk is full: brick-work could not write to ${where}. Nothing was changed; free some space on that disk and try again.`,
    );
  }
  if (code.startsWith('SQLITE_READONLY') || code === 'EROFS' || code === 'EACCES' || code === 'EPERM') {
    return new BrickWorkError(
      'read-only-store',
      `${where.charAt(0).toUpperCase()}${where.slice(1)} can't be written: the file or its folder is read-only. ` +
        'You can look and export, but not change anything; ask whoever manages this computer to make it writable.',
    );
  }
  if (code === 'SQLITE_CORRUPT' || code === 'SQLITE_NOTADB') {
    return new BrickWorkError(
      'store-damaged',
      `${where.charAt(0).toUpperCase()}${where.slice(1)} is damaged (cut short or unreadable) and was left untouched. ` +
        'Restore it from a backup, or ask for help before changing it.',
    );
  }
  return null;
}

/**
 * Anything thrown, as a value fit to show: our refusals as they are, the store's own troubles (busy,
 * read-only, damaged, disk full) in plain words, and only the truly unexpected as `internal`.
 */
export function toErrorValue(e: unknown, storePath: string | null = null): ErrorValue {
  if (isBrickWorkError(e)) return e.toValue();
  const trouble = storeTrouble(e, storePath);
  if (trouble !== null) return trouble.toValue();
  const detail = e instanceof Error ? e.message : String(e);
  return { code: 'internal', message: `Something went wrong inside brick-work: ${quote(detail)}` };
}
