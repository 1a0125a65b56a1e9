import type { JobOrderLines } from '../api/contract.ts';
import type { Credentials } from '../catalogue/bricklink/oauth.ts';
import type { ErrorValue } from '../vocabulary/errors.ts';
import type { FetchedStock } from '../stock/lookup.ts';

/** What the main thread asks of the runner thread. */
export type HostMessage =
  | { type: 'catalogue-load'; files: { name: string; content: Uint8Array }[]; itemType: string | null }
  | { type: 'lookup'; jobId: number; credentials: Credentials; apiUrl: string }
  /** `stock.lookup`: the store's inventory, its call counted here, then sent; answered `stock-fetched`. */
  | { type: 'stock-fetch'; id: number; credentials: Credentials; apiUrl: string }
  | { type: 'credentials'; credentials: Credentials; apiUrl: string }
  | { type: 'wake' }
  /** This desk was renamed (Settings): the jobs the thread claims and the loads it starts are the new name's. */
  | { type: 'desk'; desk: string }
  | { type: 'stop' };

/**
 * A message as it is sent: with the main thread's clock reading (ms since the epoch). A `Clock` is a
 * function and can't cross to the thread; the thread goes by the latest reading instead, carried on by
 * the time that has passed since, so it keeps the core's clock (injected in tests), not its own.
 */
export type StampedHostMessage = HostMessage & { readonly clockMs: number };

/** What the runner thread tells the main thread. */
export type ThreadMessage =
  | { type: 'ready' }
  /** It could not open the store (or end what the thread before it had): it ends, and is started again. */
  | { type: 'failed'; error: ErrorValue }
  | { type: 'progress'; kind: string; done: number; total: number | null; state: string }
  | {
      type: 'finished';
      kind: string;
      error: ErrorValue | null;
      summary: string | null;
      /** A catalogue load: the orders whose lines it placed or unplaced (SPEC §9: each count a way to those lines). */
      orders?: readonly JobOrderLines[];
    }
  | { type: 'changed'; reason: string }
  /** The answer to `stock-fetch` `id`: the inventory, or why not. */
  | { type: 'stock-fetched'; id: number; fetched: FetchedStock | null; error: ErrorValue | null }
  | { type: 'log'; line: string };
