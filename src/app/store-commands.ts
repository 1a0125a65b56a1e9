/**
 * What the CLI's shell commands do to the store at a path, outside the service (SPEC §4, §5, §14): read its
 * facts, upgrade it, copy it, recover dead owners' work, load the colours from BrickLink's API. Each opens
 * the store as it needs, does its one thing, closes it, and answers with plain values the CLI prints.
 */
import { credentialsFromEnv } from '../catalogue/bricklink/oauth.ts';
import { SYSTEM_CLOCK } from '../platform/clock.ts';
import { BrickWorkError } from '../vocabulary/errors.ts';
import { storeName } from '../vocabulary/store-location.ts';
import { formatApplicationId } from '../store/application-id.ts';
import { copyStore, type CopyReport } from '../store/copy/index.ts';
import { inspectStore, type StoreInfo } from '../store/info.ts';
import type { Store } from '../store/open.ts';
import { writeSession } from '../store/session.ts';
import { formatVersion } from '../store/schema-version.ts';
import { CURRENT_SCHEMA } from '../store/upgrades/index.ts';
import { openForCommand } from './open-for-command.ts';
import { recoverDeadOwners, type Recovery } from './recovery.ts';
import { apiUrlOf, loadColoursFromApi } from './work.ts';

export type { CopyReport, StoreInfo };

type Log = (line: string) => void;

/** The schema this brick-work reads and writes, as "4.2". */
const APP_SCHEMA = formatVersion(CURRENT_SCHEMA);

export { SERVER_FIRST_SCHEMA } from '../store/info.ts';

/** Opens the store as `mode` says, runs `fn`, and closes it whatever happens. */
async function withStoreAt<T>(
  storePath: string,
  mode: 'read' | 'write',
  log: Log,
  fn: (store: Store) => T | Promise<T>,
) {
  const store = await openForCommand(storePath, mode, log);
  try {
    return await fn(store);
  } finally {
    store.close();
  }
}

/** What `store info` reads of any store file, whatever its version — even one this brick-work refuses to open. */
export function storeFacts(storePath: string): { readonly info: StoreInfo; readonly applicationId: string | null } {
  const info = inspectStore(storePath);
  return { info, applicationId: info.applicationId === null ? null : formatApplicationId(info.applicationId) };
}

/** What opening a store read-write did to it (`store upgrade`). */
export interface UpgradeDone {
  /** The schema this brick-work reads and writes, as "4.2". */
  readonly schema: string;
  /** The schemas it was upgraded from and to, and where the backup of the older file is; null when it was not. */
  readonly upgrade: { readonly from: string; readonly to: string; readonly backup: string } | null;
  /** The store as staff name it (a server without its password); null for no file. */
  readonly path: string | null;
  /** Set when the open made a new store. */
  readonly created: boolean;
}

/** Opens the store read-write, which upgrades an older one (with its backup) or makes a new one. */
export function upgradeStoreAt(storePath: string, log: Log): Promise<UpgradeDone> {
  return withStoreAt(storePath, 'write', log, (store) => ({
    schema: APP_SCHEMA,
    upgrade: store.upgrade,
    path: store.path === null ? null : storeName(store.path),
    created: store.created,
  }));
}

/** Copies the store at `from` into the empty one at `to` (SPEC §14), each table checked row for row. */
export function copyStoreTo(from: string, to: string, log: Log): Promise<CopyReport> {
  return copyStore(from, to, { onProgress: log });
}

/** Puts dead owners' running jobs back in the queue (`jobs recover`, SPEC §4), each said in a sentence. */
export function recoverStoreAt(
  storePath: string,
  log: Log,
): Promise<{
  readonly recovered: readonly number[];
  readonly catalogueJob: Recovery['catalogueJob'];
  readonly lines: readonly string[];
}> {
  return withStoreAt(storePath, 'write', log, (store) => {
    const r = recoverDeadOwners(store.db, store.path, SYSTEM_CLOCK);
    return { recovered: r.jobs.map((j) => j.id), catalogueJob: r.catalogueJob, lines: r.lines };
  });
}

/** Loads the colours from BrickLink's API colour list into the store (one call; `catalogue colours`) and says what it did. */
export function loadColoursAt(storePath: string, env: NodeJS.ProcessEnv, log: Log) {
  return withStoreAt(storePath, 'write', log, async (store) => {
    const { credentials, missing } = credentialsFromEnv(env);
    if (credentials === null) {
      throw new BrickWorkError('no-credentials', `The BrickLink credentials are missing: set ${missing.join(', ')}.`);
    }
    // No --desk here: the load names this computer.
    const { result, summary } = await loadColoursFromApi(writeSession(store.db), store.path ?? '', {
      clock: SYSTEM_CLOCK,
      credentials,
      apiUrl: apiUrlOf(store.db, env),
    });
    return {
      colours: result.colours,
      placed: result.placed,
      placedByOrder: result.placedByOrder,
      unplacedByOrder: result.unplacedByOrder,
      summary,
      /** Said on the log beside the summary (stderr). */
      warning: result.warning,
    };
  });
}
