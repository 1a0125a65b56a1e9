import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { BrickWorkError } from '../vocabulary/errors.ts';
import { nativeOptions } from './native.ts';

/**
 * Whether the store can be written, and where it can be read from when it can't (SPEC §11: a store that
 * can't be written opens for reading — in place where SQLite can, else from a private snapshot copy).
 */

/**
 * Why the store at `storePath` can't be written, in plain words, or null when it can: the file, or the
 * folder SQLite keeps its `-wal` and `-shm` files in, is read-only (or the disk is). A missing file
 * counts as writable when its folder is, or can be made.
 */
export function whyUnwritable(storePath: string): string | null {
  const problem = (p: string): NodeJS.ErrnoException | null => {
    try {
      fs.accessSync(p, fs.constants.W_OK);
      return null;
    } catch (e) {
      return e as NodeJS.ErrnoException;
    }
  };
  const onFile = problem(storePath);
  // The nearest folder that exists: the open makes the missing ones in it.
  let dir = path.dirname(storePath);
  while (!fs.existsSync(dir) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  const onDir = problem(dir);
  if (onFile?.code === 'EROFS' || onDir?.code === 'EROFS') return 'the disk it is on is read-only';
  const file = onFile !== null && onFile.code !== 'ENOENT';
  if (file && onDir !== null) return `the file and its folder (${dir}) are read-only`;
  if (file) return 'the file is read-only';
  if (onDir !== null) return `its folder (${dir}) is read-only`;
  return null;
}

/** Codes of SQLite failing to set up a read of a WAL file in place, for want of a writable folder. */
export function cannotReadInPlace(e: unknown): boolean {
  const code = (e as { code?: unknown } | null)?.code;
  return (
    code === 'SQLITE_READONLY_DIRECTORY' ||
    code === 'SQLITE_READONLY_CANTINIT' ||
    code === 'SQLITE_READONLY_RECOVERY' ||
    code === 'SQLITE_READONLY_CANTLOCK' ||
    code === 'SQLITE_CANTOPEN'
  );
}

/** Where to read a store file from: the file itself, or a private copy of it. */
export interface ReadablePlace {
  readonly path: string;
  /** Set when `path` is a private snapshot copy (the file could not be read in place). */
  readonly snapshot: boolean;
  /** Removes the copy, if there is one. */
  dispose(): void;
}

/** A WAL-mode SQLite file: its header's read and write versions (bytes 18 and 19) are 2. */
export function isWalFile(file: string): boolean {
  let fd: number | undefined;
  try {
    if (!fs.statSync(file).isFile()) return false;
    fd = fs.openSync(file, 'r');
    const header = Buffer.alloc(20);
    const n = fs.readSync(fd, header, 0, 20, 0);
    return n === 20 && header.toString('latin1', 0, 16) === 'SQLite format 3\0' && header[18] === 2 && header[19] === 2;
  } catch {
    return false;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/** Whether SQLite could make its files (`-wal`, `-shm`) beside the store. */
export function folderWritable(storePath: string): boolean {
  try {
    fs.accessSync(path.dirname(storePath), fs.constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * Where `storePath` can be read from. A WAL store needs its `-shm` index: in a folder SQLite can't write,
 * with no `-shm` there, even a read-only connection fails its first read (SQLITE_READONLY_DIRECTORY).
 * Then the file and its `-wal` (which may hold the latest commits) are copied into a private temporary
 * folder and read there. Anything else is read in place, and any other failure is left to the caller's
 * own open to report. In a writable folder nothing is tried here, so nothing is created.
 */
export function readablePlace(storePath: string): ReadablePlace {
  const inPlace: ReadablePlace = { path: storePath, snapshot: false, dispose: () => {} };
  if (!isWalFile(storePath)) return inPlace;
  // A folder we can't write: SQLite can't make the -shm in it either. See whether it needs to.
  if (folderWritable(storePath)) return inPlace;
  let db: Database.Database | undefined;
  try {
    db = new Database(storePath, { ...nativeOptions(), readonly: true, fileMustExist: true });
    db.prepare('SELECT count(*) FROM sqlite_master').pluck().get();
    return inPlace;
  } catch (e) {
    if (!cannotReadInPlace(e)) return inPlace;
  } finally {
    db?.close();
  }
  return snapshotOf(storePath);
}

/**
 * Copies the store file and its `-wal` (if any) into a new private folder, readable only by this user
 * (never the `-shm`: SQLite derives it from them). Taken again if either changed while it was copied —
 * another process wrote, and the copy would mix two moments. Cloned where the file system can (APFS,
 * btrfs): then it costs nothing however large the store.
 */
export function snapshotOf(storePath: string, attempts = 3): ReadablePlace & { readonly steady: boolean } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'brick-work-snapshot-'));
  const dispose = () => fs.rmSync(dir, { recursive: true, force: true });
  try {
    const copy = path.join(dir, path.basename(storePath));
    let steady = false;
    for (let attempt = 1; !steady && attempt <= attempts; attempt++) {
      const before = stamps(storePath);
      fs.copyFileSync(storePath, copy, fs.constants.COPYFILE_FICLONE);
      fs.rmSync(`${copy}-wal`, { force: true });
      if (fs.existsSync(`${storePath}-wal`))
        fs.copyFileSync(`${storePath}-wal`, `${copy}-wal`, fs.constants.COPYFILE_FICLONE);
      steady = stamps(storePath) === before;
    }
    // Not steady: another process kept writing. A reader of the copy still sees each page as copied.
    return { path: copy, snapshot: true, dispose, steady };
  } catch (e) {
    dispose();
    throw e;
  }
}

/** The size and change time of the store file and its WAL: equal twice, nothing was written between. */
function stamps(storePath: string): string {
  return [storePath, `${storePath}-wal`]
    .map((f) => {
      const s = fs.statSync(f, { throwIfNoEntry: false, bigint: true });
      return s ? `${s.size}:${s.mtimeNs}` : '-';
    })
    .join('|');
}

/**
 * A private copy of the store to read (`snapshotOf`). `orInPlace`: when another process kept writing
 * while it was copied, the store is read in place instead — a live writer's `-shm` is not rebuilt by a
 * reader, and a copy taken mid-write could mix two moments — and so it is when no copy can be made.
 */
export function steadyCopy(storePath: string, orInPlace: boolean): ReadablePlace {
  let copy: ReturnType<typeof snapshotOf>;
  try {
    copy = snapshotOf(storePath);
  } catch (e) {
    // No room for a copy (a full temporary folder): in place, as any reader would.
    if (orInPlace) return readablePlace(storePath);
    throw e;
  }
  if (copy.steady || !orInPlace) return copy;
  copy.dispose();
  return readablePlace(storePath);
}

/**
 * A rollback journal beside a WAL store (issue 62): SQLite writes none beside a store in WAL mode, as
 * brick-work's are, so one there was left by another program or copied along — yet SQLite takes it for
 * a write cut short, whatever database it came from: a read-only connection refuses to read
 * (SQLITE_READONLY_ROLLBACK), a read-write one copies its pages into the store. Such a store is read
 * from a private copy (never with the journal) and not written while the journal is there. Its path, or
 * null: no journal, one SQLite ignores (empty, or its first byte zero), or a rollback-journal store's own.
 */
export function strayJournal(storePath: string): string | null {
  const journal = `${storePath}-journal`;
  let fd: number | undefined;
  try {
    if (!fs.statSync(journal).isFile() || !isWalFile(storePath)) return null;
    fd = fs.openSync(journal, 'r');
    const first = Buffer.alloc(1);
    return fs.readSync(fd, first, 0, 1, 0) === 1 && first[0] !== 0 ? journal : null;
  } catch {
    return null;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/** What a stray journal is, for "why it can't be written" (`store info`). */
export function strayJournalReason(journal: string): string {
  return (
    `${journal} lies beside it, a rollback journal, which SQLite never writes beside a brick-work store ` +
    `(its changes go to its -wal): move that file out of the folder, keeping it until you know where it came from`
  );
}

/** The refusal of a write to a store with a stray journal beside it: what the file is, and what to do. */
export function strayJournalRefusal(storePath: string, journal: string): BrickWorkError {
  return new BrickWorkError(
    'read-only-store',
    `This store (${storePath}) can't be written while ${journal} lies beside it. That is a rollback journal, ` +
      'which SQLite never writes beside a brick-work store (its changes go to its -wal): another program left it ' +
      'there, or it was copied along. Opened to write, SQLite would copy its pages into the store. Nothing was ' +
      'changed; commands that only read still work. To write again, move that file out of the folder (keep it ' +
      'until you know where it came from), then try again.',
  );
}
