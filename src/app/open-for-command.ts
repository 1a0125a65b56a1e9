/**
 * How a command of the CLI opens the store (SPEC §2, §10): read-only for a command that only reads,
 * read-write (upgrading, with its backup) for one that writes — refused in words before it tries when the
 * store can't be written. What the open did is told on the log (stderr).
 */
import { damagedStore, readOnlyStore } from '../vocabulary/errors.ts';
import { folderWritable } from '../store/access.ts';
import { openStore, type Store } from '../store/open.ts';
import { upgradeNotice } from './context.ts';

export async function openForCommand(
  storePath: string,
  mode: 'read' | 'write',
  log: (line: string) => void,
): Promise<Store> {
  const store = await openStore(storePath, { readOnly: mode === 'read', oneShot: true, onProgress: log });
  // A store that can't be written opens for reading (SPEC §11); a writing command is refused before it tries.
  if (mode === 'write' && store.unwritable !== null) {
    store.close();
    throw store.damaged ? damagedStore(storePath, store.unwritable) : readOnlyStore(storePath, store.unwritable);
  }
  if (store.snapshot && !folderWritable(storePath))
    log("reading a private copy of the store: SQLite can't read it in place, as its folder can't be written");
  const upgraded = upgradeNotice(store);
  if (upgraded !== null) log(upgraded);
  return store;
}
