import type { CredentialsRead } from '../api/credentials.ts';
import type { Credentials } from '../catalogue/bricklink/oauth.ts';
import type { ErrorValue } from '../vocabulary/errors.ts';
import type { CallName, EventName, Result } from '../api/contract.ts';

/**
 * The service threads of the app and the browser host (see service-threads.ts): the writer runs the
 * writing calls; the reader, a file's preview and a compare; the suggestion thread holds the suggestion index.
 */
export type ServiceThreadRole = 'writer' | 'reader' | 'suggest';

export interface ServiceThreadData {
  readonly role: ServiceThreadRole;
  readonly storePath: string;
  /** This desk's name (SPEC §8). */
  readonly desk: string;
  readonly nativeBinding: string | null;
  /** The core's clock at the start (see StampedServiceMessage). */
  readonly clockMs: number;
  /** The BrickLink credentials as the main thread last read them, for `lookup.start` and the settings' view. */
  readonly credentials: CredentialsRead;
  readonly credentialsEncrypted: boolean;
  /** The cell of the process's mark of a store found damaged (see `DamageMark`). */
  readonly damage: SharedArrayBuffer;
}

/** What the main thread asks of a service thread. */
export type ToServiceThread =
  /** A contract call, its arguments already checked; `cancel`: a flag the main thread sets to stop an import. */
  | {
      type: 'call';
      id: number;
      name: CallName;
      args: unknown;
      cancel: SharedArrayBuffer | null;
      /** When it was asked (`performance.timeOrigin + performance.now()`): its wait for the write lock ends 10 s after. */
      sentAt: number;
    }
  | { type: 'credentials'; credentials: CredentialsRead }
  /** This desk was renamed (Settings): the steps this thread writes are the new name's. */
  | { type: 'desk'; desk: string }
  | { type: 'build-index' }
  | { type: 'stop' };

/** As sent: with the core's clock reading, which the thread carries on by its monotonic time (as the runner thread does). */
export type StampedServiceMessage = ToServiceThread & { readonly clockMs: number };

/** What a service thread tells the main thread. */
export type FromServiceThread =
  | { type: 'ready' }
  /** Its store could not be opened: every call it was asked answers this. */
  | { type: 'failed'; error: ErrorValue }
  | { type: 'answer'; id: number; result: Result<unknown> }
  /** Call `id` waits for another's write lock (the main thread says so on the screen if it still does after a moment). */
  | { type: 'waiting'; id: number }
  | { type: 'event'; name: EventName; payload: unknown }
  /** `lookup.start` queued a run of the look-up job: the job runner thread is to run it. */
  | { type: 'lookup'; jobId: number; credentials: Credentials; apiUrl: string }
  /** The suggestion index is built, as the catalogue was at `generation`; or it could not be. */
  | { type: 'index-built'; generation: string }
  | { type: 'index-failed'; error: ErrorValue }
  | { type: 'log'; line: string };
