import type { PlacementConfirmation } from './confirmations.ts';
import { isServerAddress, storeName } from './store-location.ts';

/**
 * Refusals are values with a code and a plain message for staff (SPEC §10). They travel as
 * `BrickWorkError` inside the core (so a refusal unwinds a transaction) and as `ErrorValue` across
 * every boundary: CLI output, the API contract, the screen. Never a stack trace. The store's engine
 * errors become these refusals in src/store (`store/errors.ts`: `storeTrouble`, `toErrorValue`).
 */
export const ERROR_CODES = [
  'not-a-store',
  'store-too-new',
  'store-too-old',
  'needs-upgrade',
  'store-busy',
  'read-only-store',
  'store-damaged',
  /** A PostgreSQL store's server can't be reached, or went away mid-call (SPEC §14). */
  'store-unreachable',
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
  'step-conflict',
  /** A line another desk (or window) changed since this one showed it (SPEC §14): nothing written. */
  'line-changed',
  /** The import preview's warnings (what the reader assumed) were not acknowledged (SPEC §8). */
  'needs-acknowledgement',
  'needs-colour',
  /** A BrickLink items download whose kind of item neither its name nor the call gives (SPEC §5). */
  'needs-type',
  'no-credentials',
  /** There is no current stock (issue 65): a pick or put-away list needs one imported first. */
  'no-stock',
  /** A file over the size brick-work reads for what it is (SPEC §11): the cap and its size, nothing read. */
  'too-big',
  /** The computer's keychain would not give up a secret the desk stored (denied, locked, another signature). */
  'keychain-refused',
  'source-error',
  /** The app's own printing failed (no printer, the system refused): nothing was printed. */
  'print-failed',
  /** Staff stopped a long piece of work (an import) before it wrote anything. */
  'cancelled',
  /** A thread doing the call stopped (it is started again): the call may or may not have been done. */
  'interrupted',
  'invalid-argument',
  /** The browser host refused a request before any call: too large, not this start's token, or it can't be reached. */
  'too-large',
  'not-allowed',
  'host-unreachable',
  'internal',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export interface ErrorValue {
  readonly code: ErrorCode;
  readonly message: string;
  /** `needs-acknowledgement` of a hand placement: what to confirm for it to go ahead (SPEC §9). */
  readonly confirm?: PlacementConfirmation;
  /** `step-conflict`: the other desk's history step it names, which the screens offer to show (SPEC §8). */
  readonly step?: number;
}

export class BrickWorkError extends Error implements ErrorValue {
  override readonly name = 'BrickWorkError';
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly confirm?: PlacementConfirmation,
    readonly step?: number,
  ) {
    super(message);
  }

  toValue(): ErrorValue {
    return {
      code: this.code,
      message: this.message,
      ...(this.confirm === undefined ? {} : { confirm: this.confirm }),
      ...(this.step === undefined ? {} : { step: this.step }),
    };
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

/** "this store (PATH)", or "this store" when the path is not known. */
export function thisStore(storePath: string | null): string {
  return storePath === null ? 'this store' : `this store (${storeName(storePath)})`;
}

function sentence(text: string): string {
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
}

/**
 * A PostgreSQL store's server can't be reached or went away (SPEC §14 `store-unreachable`): `where` is
 * the server and database as staff would name them (never the password), `why` the fault in words.
 */
export function storeUnreachable(where: string, why: string): BrickWorkError {
  return new BrickWorkError(
    'store-unreachable',
    `The shop's server (${where}) can't be reached: ${why}. Nothing was half-written; brick-work connects again at the next step. If this goes on, check that the server is running and this desk's network.`,
  );
}

/**
 * Another process holds the store's write lock past the busy timeout (SPEC §10 `store-busy`); `who`
 * holds it, in words, where the store can know (`app/store-holder.ts`: a desk's catalogue load, a session).
 */
export function storeBusy(storePath: string | null, who: string | null = null): BrickWorkError {
  if (who !== null)
    return new BrickWorkError(
      'store-busy',
      `${sentence(who)} is writing to ${thisStore(storePath)}, and this waited for it too long; try again in a moment. Nothing was changed.`,
    );
  return new BrickWorkError(
    'store-busy',
    `Another brick-work is writing to ${thisStore(storePath)}; try again in a moment. Nothing was changed.`,
  );
}

/**
 * The store can't be written (SPEC §10 `read-only-store`): `reason` says why in plain words ("its
 * folder (…) is read-only"), when it is known.
 */
export function readOnlyStore(storePath: string | null, reason: string | null = null): BrickWorkError {
  return new BrickWorkError(
    'read-only-store',
    `${sentence(thisStore(storePath))} can't be written: ${reason ?? 'the file or its folder is read-only'}. ` +
      'Nothing was changed; you can still look at it and export from it. To change it, ask whoever ' +
      (storePath !== null && isServerAddress(storePath) ? "runs the shop's server" : 'manages this computer') +
      ' to make it writable, then try again.',
  );
}

/** A write ran out of disk space (SPEC §10 `disk-full`); `what` is the file it was writing, when known. */
/** A store the read-write open's check found damaged (SPEC §11): never written; how to go back to a backup. */
export function damagedStore(storePath: string | null, found: string): BrickWorkError {
  return new BrickWorkError(
    'store-damaged',
    `${storePath === null ? 'The store' : storeName(storePath)} is damaged (${found}), so brick-work writes nothing more to it; you can still look at ` +
      'it and export from it. To go on working, put back a copy from a backup (an upgrade to 4.2 kept one beside ' +
      'it, brick-work.sqlite.4.1.bak; docs/upgrade-4.2.md says how), or ask for help before changing it.',
  );
}

export function diskFull(what: string): BrickWorkError {
  return new BrickWorkError(
    'disk-full',
    `The disk is full: brick-work could not write to ${what}. Nothing was changed; free some space on that disk and try again.`,
  );
}
