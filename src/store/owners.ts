/**
 * Who owns a job, on either store (SPEC §3, §14; ADR 0027 §5). On a SQLite file the owner is this
 * process, named exactly by `(pid, boot_id, start_ticks)`; on a PostgreSQL server it is the connection's
 * server session, which the server alone knows across machines. Both are compared exactly, no clock.
 */
import { identityOf, isAlive, sameOwner, SYSTEM_PROC, type OwnerIdentity } from '../identity/owner.ts';
import type { ProcView } from '../identity/proc.ts';
import type { ReadableDb, StoreDb } from './db.ts';
import { applicationName, hostOf } from './postgres/application-name.ts';
import { PostgresDatabase, SESSION_PREFIX } from './postgres/database.ts';

/** The owner a claim made through `db` records: its server session, or this process. */
export function connectionOwner(db: StoreDb, proc: ProcView = SYSTEM_PROC): OwnerIdentity {
  return db instanceof PostgresDatabase ? db.sessionOwner() : identityOf(process.pid, proc);
}

/**
 * The owner a guarded write through `db` acts as. On a server it is the session writing *now*: a
 * runner whose connection was cut and made again is a new session, no longer the owner, so its
 * compare-and-set fails and it stops, while the next claim takes the job over.
 */
export function actingOwner(db: StoreDb, me: OwnerIdentity): OwnerIdentity {
  return db instanceof PostgresDatabase && isSession(me) ? db.sessionOwner() : me;
}

/** Whether `owner` lives: a session while the server has it, a process by the rule of SPEC §3. */
export function ownerAlive(db: ReadableDb, owner: OwnerIdentity, proc: ProcView = SYSTEM_PROC): boolean {
  if (isSession(owner)) return db instanceof PostgresDatabase && db.sessionAlive(owner);
  // On a server only sessions own jobs: a process owner came with a store copied from a file, and the
  // process that ran it there (alive or not, on whichever computer) owns nothing here.
  if (db instanceof PostgresDatabase) return false;
  return isAlive(owner, proc);
}

export function isSession(owner: OwnerIdentity): boolean {
  return owner.bootId?.startsWith(SESSION_PREFIX) === true;
}

/**
 * Where `owner` is, for the jobs list: whether it is this app (this process on a file; on a server, a
 * session one of this app's connections opened), and on a server the computer whose brick-work holds it
 * while it lives. Only words and `ownedHere` come of it; who owns a job stays the exact comparison.
 */
export function ownerPlace(
  db: ReadableDb,
  owner: OwnerIdentity | null,
  proc: ProcView = SYSTEM_PROC,
): { here: boolean; desk: string | null } {
  if (owner === null) return { here: false, desk: null };
  if (!isSession(owner)) {
    return { here: sameOwner(owner, identityOf(process.pid, proc)), desk: null };
  }
  const name = db instanceof PostgresDatabase ? db.sessionApplication(owner) : null;
  if (name === null) return { here: false, desk: null };
  return { here: name === applicationName(identityOf(process.pid, proc)), desk: hostOf(name) };
}

/**
 * Who holds the store's write lock now, where the store can know it: on a server the session (and the
 * computer its brick-work runs on); a SQLite file can't tell (null).
 */
export function writeLockHolder(db: ReadableDb): { owner: OwnerIdentity; computer: string | null } | null {
  if (!(db instanceof PostgresDatabase)) return null;
  const held = db.writerLockHolder();
  return held === null ? null : { owner: held.owner, computer: hostOf(held.application) };
}
