/**
 * The contract's service context, made the one way for every starter (SPEC §1's composition root): the
 * app's main thread, each service thread, and the CLI give their own ports; the store's state (its
 * schema, its upgrade, whether it can be written) is read from the store the same way for all.
 */
import type { ServiceContext } from '../api/ports.ts';
import type { Store } from '../store/open.ts';
import { formatVersion } from '../store/schema-version.ts';
import { CURRENT_SCHEMA } from '../store/upgrades/index.ts';
import { storeHolder } from './store-holder.ts';

/** Why a store opened for reading only can't be written, as the service shows it; null when it can be. */
export function readOnlyOf(store: Store): { reason: string; snapshot: boolean; damaged: boolean } | null {
  return store.unwritable === null
    ? null
    : { reason: store.unwritable, snapshot: store.snapshot, damaged: store.damaged };
}

/** What a starter gives the service besides the store. */
export type Ports = Omit<ServiceContext, 'db' | 'storePath' | 'schema' | 'upgrade' | 'readOnly' | 'recovered'> &
  Partial<Pick<ServiceContext, 'recovered'>>;

/** The service's context over `store`, at `storePath`, with the starter's ports. */
export function serviceContext(store: Store, storePath: string, ports: Ports): ServiceContext {
  return {
    db: store.db,
    storePath,
    schema: formatVersion(CURRENT_SCHEMA),
    upgrade: store.upgrade,
    readOnly: readOnlyOf(store),
    recovered: [],
    storeHolder: () => storeHolder(store.db, storePath),
    ...ports,
  };
}

/** What an upgrade at the open did, in a sentence for the log (the app's, the host's, the CLI's stderr). */
export function upgradeNotice(store: Store): string | null {
  const u = store.upgrade;
  return u === null
    ? null
    : `upgraded the store from schema ${u.from} to ${u.to}; the ${u.from} file is backed up at ${u.backup}`;
}
