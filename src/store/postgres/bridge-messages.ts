/** What the PostgreSQL bridge's caller and its thread say to each other (ADR 0027). */
import type { MessagePort } from 'node:worker_threads';
import type { PasswordFrom } from './password.ts';

/** One statement for the thread to run. */
export interface BridgeStatement {
  readonly sql: string;
  readonly params: readonly unknown[];
  /** A name for the statement: the server parses and plans it once a connection, then runs it by name. */
  readonly name?: string;
}

/** A statement's answer: its rows and the count it touched. */
export interface BridgeAnswer {
  readonly rows: readonly Record<string, unknown>[];
  readonly rowCount: number;
}

export type ToBridge =
  | { readonly kind: 'connect' }
  | (BridgeStatement & {
      readonly kind: 'query';
      /**
       * Statements to run first, in order, whose answers the caller did not wait for (a transaction's
       * BEGIN and lock, writes whose counts it has not asked yet): one message for all. The first that
       * fails is the answer, and nothing after it runs.
       */
      readonly before?: readonly BridgeStatement[];
    })
  | { readonly kind: 'close' };

export interface BridgeFault {
  /** PostgreSQL's SQLSTATE, or Node's error code (`ECONNREFUSED`), when there is one. */
  readonly code: string | null;
  readonly message: string;
  /** The connection is gone or could not be made: `store-unreachable`, not a bug. */
  readonly connection: boolean;
  /** Where the connection's password came from (`password.ts`), for the words of a login refused. */
  readonly password?: {
    readonly from: PasswordFrom | null;
    readonly file: string;
    readonly ignored: string | null;
  };
}

export type FromBridge = (
  | {
      readonly ok: true;
      readonly rows: readonly Record<string, unknown>[];
      readonly rowCount: number;
      /** The answers of the statements run first (`before`), in their order. */
      readonly before: readonly BridgeAnswer[];
      /** Which of the thread's connections answered (1, 2, … as it connects again): a new one is a new session. */
      readonly connection: number;
    }
  | { readonly ok: false; readonly fault: BridgeFault }
) & {
  /** libpq's warnings the thread met (a password file it ignored), for the caller to print as psql does. */
  readonly warnings?: readonly string[];
};

export interface BridgeData {
  readonly url: string;
  /** The name its connections give the server (`application-name.ts`). */
  readonly applicationName: string;
  /** Int32 [state]: 0 while a request is out, 1 when its answer is on the port. */
  readonly signal: SharedArrayBuffer;
  readonly port: MessagePort;
}

/** A login the server asked a password of, with none to give (our code). */
export const NO_PASSWORD = 'brick-work:no-password';
