/**
 * A desk's connection to write through (issue 66 §3, Actual's mutator context): the connection and the
 * desk whose steps, marks, claims and loads it writes, made once where both are known (a service, a
 * thread, a command) and passed down to what records them. It lives here rather than in `identity/`
 * because it holds the store's connection, and identity is below the store (eslint.config.js LAYERS).
 */
import { thisComputer } from '../identity/desk.ts';
import type { StoreDb } from './db.ts';

export interface WriteSession {
  readonly db: StoreDb;
  /** The desk's name; renamed in place when staff rename the desk (Settings → This desk). */
  desk: string;
}

/** `db` written through by `desk`, this computer's name until the desk is named. */
export function writeSession(db: StoreDb, desk: string = thisComputer()): WriteSession {
  return { db, desk };
}
