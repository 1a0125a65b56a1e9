import type { StoreDb } from './db.ts';
import { APPLICATION_ID } from './application-id.ts';
import { backupPath, backupStore } from './backup.ts';
import { classifyHeader, readHeader, refusalFor, statusOf } from './inspect.ts';
import { compareVersions, formatVersion, parseVersion, toUserVersion, type SchemaVersion } from './schema-version.ts';
import { ensureLateTables, settled, markFixupsDone, runPendingFixups } from './upgrades/fixups.ts';
import { BASELINE, BASELINE_SCHEMA, CURRENT_SCHEMA, UPGRADES, type UpgradeStep } from './upgrades/index.ts';

export interface UpgradeReport {
  readonly from: string;
  readonly to: string;
  /** The copy of the file as it was before the first step. */
  readonly backup: string;
}

export type Progress = (message: string) => void;

/** The steps that take a store at `from` to the current schema, checked to form one chain. */
export function pendingSteps(from: SchemaVersion): UpgradeStep[] {
  const steps = UPGRADES.filter((s) => compareVersions(parseVersion(s.from), from) >= 0);
  let at = formatVersion(from);
  for (const step of steps) {
    if (step.from !== at) throw new Error(`UPGRADES is not a chain: expected a step from ${at}, found ${step.from}`);
    at = step.to;
  }
  return steps;
}

function runSteps(db: StoreDb, from: SchemaVersion, progress: Progress): void {
  for (const step of pendingSteps(from)) {
    progress(`upgrading ${step.from} → ${step.to}`);
    step.up(db, (message) => progress(`upgrading ${step.from} → ${step.to}: ${message}`));
  }
  db.pragma(`user_version = ${toUserVersion(CURRENT_SCHEMA)}`);
}

/** A new store: the 4.1 baseline, then every step, so that it equals an upgraded one. Caller owns the transaction. */
export function createSchema(db: StoreDb, progress: Progress = () => {}): void {
  db.pragma(`application_id = ${APPLICATION_ID}`);
  BASELINE.create(db);
  runSteps(db, BASELINE_SCHEMA, progress);
}

export interface PrepareResult {
  readonly created: boolean;
  readonly upgrade: UpgradeReport | null;
}

/**
 * Brings a read-write connection's store to the current schema: makes a new store in an empty file,
 * or upgrades an older one. Everything happens under one write transaction (BEGIN IMMEDIATE), so two
 * processes opening one file at once can't both do it, and a process killed half-way leaves the
 * file as it was. The backup is taken under that same lock, before the first step. A store already at
 * the current schema gets the one-time fix-ups it has not had (`upgrades/fixups.ts`), under that lock too.
 */
export async function prepareStore(db: StoreDb, storePath: string, progress: Progress): Promise<PrepareResult> {
  // A current store with nothing to repair is looked at without the lock: another process's long write
  // (a catalogue load's merge) never keeps this one from opening. Anything to do is checked again under it.
  const before = classifyHeader(readHeader(db));
  if (before.kind === 'store' && statusOf(before.version) === 'current' && settled(db))
    return { created: false, upgrade: null };
  db.exec('BEGIN IMMEDIATE');
  try {
    const file = classifyHeader(readHeader(db));
    const refusal = refusalFor(storePath, file);
    if (refusal) throw refusal;
    let result: PrepareResult = { created: false, upgrade: null };
    if (file.kind === 'empty') {
      createSchema(db);
      markFixupsDone(db);
      result = { created: true, upgrade: null };
    } else if (file.kind === 'store' && statusOf(file.version) === 'needs-upgrade') {
      const from = formatVersion(file.version);
      const backup = backupPath(storePath, from);
      progress(`backing up the ${from} store to ${backup}`);
      await backupStore(storePath, backup);
      runSteps(db, file.version, progress);
      // The steps wrote this build's schema: nothing of an earlier build of it to repair.
      markFixupsDone(db);
      result = { created: false, upgrade: { from, to: formatVersion(CURRENT_SCHEMA), backup } };
    } else {
      ensureLateTables(db);
      runPendingFixups(db, progress);
    }
    db.exec('COMMIT');
    return result;
  } catch (e) {
    if (db.inTransaction) db.exec('ROLLBACK');
    throw e;
  }
}
