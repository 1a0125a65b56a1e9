import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { diskFull } from '../vocabulary/errors.ts';
import { storeTrouble } from './errors.ts';
import { nativeOptions } from './native.ts';

/** Where the upgrade from `fromVersion` keeps its copy: `brick-work.sqlite.4.1.bak`, next to the store. */
export function backupPath(storePath: string, fromVersion: string): string {
  return `${storePath}.${fromVersion}.bak`;
}

/**
 * Copies the committed state of the store at `storePath` to `destPath` with SQLite's online backup
 * API, through a read-only connection of its own (the caller may hold the write lock, so that no one
 * commits between the copy and the upgrade). The copy is a single rollback-journal file, written under
 * a temporary name, synced, then renamed: a crash never leaves a torn backup under the real name.
 */
export async function backupStore(storePath: string, destPath: string): Promise<void> {
  const partial = `${destPath}.partial`;
  fs.rmSync(partial, { force: true });
  try {
    const source = new Database(storePath, { ...nativeOptions(), readonly: true, fileMustExist: true });
    try {
      await source.backup(partial);
    } finally {
      source.close();
    }
    const copy = new Database(partial, nativeOptions());
    try {
      copy.pragma('journal_mode = DELETE');
    } finally {
      copy.close();
    }
    fsyncPath(partial);
  } catch (e) {
    // A copy that could not be finished (a full disk) is no backup: don't leave it taking up the space.
    for (const side of ['', '-journal', '-wal', '-shm']) fs.rmSync(`${partial}${side}`, { force: true });
    // Name the file that did not fit: the backup, not the store.
    if (storeTrouble(e, destPath)?.code === 'disk-full') throw diskFull(destPath);
    throw e;
  }
  fs.renameSync(partial, destPath);
  fsyncPath(path.dirname(destPath));
}

function fsyncPath(p: string): void {
  const fd = fs.openSync(p, 'r');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}
