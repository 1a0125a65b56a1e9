/**
 * The picture cache (SPEC §15, issue 48): an SQLite file of its own beside the store, never the store —
 * pictures are not shop data, and are never copied with it. Each picture is kept with when it was
 * fetched (older than the setting's days, it is fetched again when shown) and when it was last shown;
 * past the size cap, the longest unshown go first. An answer that there is no such picture is kept too,
 * so it is not asked again at every look (until it is as old). Whatever else sits at the cache's path is
 * never touched (issue 62 §4): the cache is then held in memory for this start, and says why.
 */
import Database from 'better-sqlite3';
import fs from 'node:fs';
import path from 'node:path';
import { headerFromBytes, mainFileHeader } from './header-bytes.ts';
import { nativeOptions } from './native.ts';
import { userDataDir } from './paths.ts';
import { isServerAddress } from '../vocabulary/store-location.ts';

/** Marks the file as brick-work's picture cache ("BRKP"): another file is never taken for one. */
const CACHE_APPLICATION_ID = 0x42524b50;

export interface CachedPicture {
  /** The picture's bytes and media type; null: the server said there is none. */
  readonly picture: { readonly bytes: Uint8Array; readonly type: string } | null;
  /** When it was fetched (ms since the epoch). */
  readonly fetchedAt: number;
}

export interface PictureCacheStats {
  readonly pictures: number;
  readonly missing: number;
  readonly bytes: number;
}

/** Thrown by `made` where the file proves not to be a picture cache once open (it is then left as it is). */
class NotACache extends Error {}
/** Thrown by `made` where a picture cache of ours fails its check. */
class Damaged extends Error {}

export class PictureCache {
  private readonly db: Database.Database;

  private constructor(
    db: Database.Database,
    /** The size cap, in bytes. */
    private capBytes: number,
    /** Why this cache is held in memory rather than in its file; null: in its file (or asked for in memory). */
    readonly heldInMemory: string | null = null,
  ) {
    this.db = db;
  }

  /**
   * Opens (or makes) the cache at `file`. What sits there and is not a picture cache — a folder, another
   * application's file, a brick-work store — is told by its bytes and never opened (opening a store would
   * checkpoint its WAL and make its `-shm`): the cache is then held in memory, saying why. A picture cache
   * found damaged is set aside (renamed `.bad`) and a new one made: what it held can always be fetched
   * again. `:memory:`: a cache for this process only.
   */
  static open(file: string, capBytes: number): PictureCache {
    if (file === ':memory:') return new PictureCache(PictureCache.made(file), capBytes);
    const other = notACache(file);
    if (other !== null) return PictureCache.inMemory(capBytes, other);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    try {
      return new PictureCache(PictureCache.made(file), capBytes);
    } catch (e) {
      if (e instanceof NotACache) return PictureCache.inMemory(capBytes, foreign(file));
      if (!isDamage(e)) throw e;
      for (const end of ['', '-wal', '-shm']) fs.rmSync(`${file}.bad${end}`, { force: true });
      if (fs.existsSync(file)) fs.renameSync(file, `${file}.bad`);
      for (const end of ['-wal', '-shm']) fs.rmSync(`${file}${end}`, { force: true });
      return new PictureCache(PictureCache.made(file), capBytes);
    }
  }

  /** A cache for this process only, held in memory because of `why` (said in Settings). */
  static inMemory(capBytes: number, why: string): PictureCache {
    return new PictureCache(PictureCache.made(':memory:'), capBytes, why);
  }

  /** A second connection to the cache another connection made at `file` (the pictures' thread's). */
  static attach(file: string, capBytes: number): PictureCache {
    const db = new Database(file, { ...nativeOptions(), fileMustExist: true });
    db.pragma('busy_timeout = 2000');
    db.pragma('synchronous = NORMAL');
    if (db.pragma('application_id', { simple: true }) !== CACHE_APPLICATION_ID) {
      db.close();
      throw new Error(`${file} is not a picture cache`);
    }
    return new PictureCache(db, capBytes);
  }

  /** The cache's file (`:memory:` for one held in memory). */
  get file(): string {
    return this.db.name;
  }

  private static made(file: string): Database.Database {
    const db = new Database(file, nativeOptions());
    try {
      const id = db.pragma('application_id', { simple: true }) as number;
      const tables = db.prepare("SELECT count(*) FROM sqlite_master WHERE type = 'table'").pluck().get() as number;
      if (id !== CACHE_APPLICATION_ID && (id !== 0 || tables > 0)) throw new NotACache();
      // Marked first, before anything else is written: a start cut short leaves a file known as ours.
      if (id !== CACHE_APPLICATION_ID) db.pragma(`application_id = ${CACHE_APPLICATION_ID}`);
      db.pragma('journal_mode = WAL');
      // Pictures can always be fetched again: a power cut may lose the last few, never the file.
      db.pragma('synchronous = NORMAL');
      db.pragma('busy_timeout = 2000');
      db.exec(`CREATE TABLE IF NOT EXISTS picture (
                 url TEXT PRIMARY KEY,
                 type TEXT,
                 bytes BLOB,
                 size INTEGER NOT NULL,
                 fetched_at INTEGER NOT NULL,
                 shown_at INTEGER NOT NULL
               );
               CREATE INDEX IF NOT EXISTS picture_shown ON picture (shown_at);`);
      if ((db.pragma('quick_check', { simple: true }) as string) !== 'ok') throw new Damaged();
      return db;
    } catch (e) {
      db.close();
      throw e;
    }
  }

  /** The picture kept for `url`, or null when none is kept; a read only (the thread that answers calls). */
  peek(url: string): CachedPicture | null {
    const row = this.db.prepare('SELECT type, bytes, fetched_at AS fetchedAt FROM picture WHERE url = ?').get(url) as
      { type: string | null; bytes: Buffer | null; fetchedAt: number } | undefined;
    if (row === undefined) return null;
    return {
      picture: row.bytes === null ? null : { bytes: new Uint8Array(row.bytes), type: row.type ?? 'image/png' },
      fetchedAt: row.fetchedAt,
    };
  }

  /** These were shown at `now`: past the cap, the pictures shown longest ago go first. */
  markShown(urls: readonly string[], now: number): void {
    const mark = this.db.prepare('UPDATE picture SET shown_at = ? WHERE url = ?');
    this.db.transaction(() => urls.forEach((u) => mark.run(now, u)))();
  }

  /** Runs `fn` as one read transaction: a screenful of pictures looked up as one moment of the cache. */
  batch<T>(fn: () => T): T {
    return this.db.transaction(fn)();
  }

  /** Keeps what was fetched for `url` (null: there is no such picture), then keeps the cache within its cap. */
  put(url: string, picture: { bytes: Uint8Array; type: string } | null, now: number): void {
    const size = url.length + (picture?.bytes.length ?? 0);
    this.db
      .prepare(
        `INSERT INTO picture (url, type, bytes, size, fetched_at, shown_at) VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (url) DO UPDATE SET type = excluded.type, bytes = excluded.bytes, size = excluded.size,
           fetched_at = excluded.fetched_at, shown_at = excluded.shown_at`,
      )
      .run(url, picture?.type ?? null, picture === null ? null : Buffer.from(picture.bytes), size, now, now);
    this.keepWithinCap();
  }

  /** The cap in bytes; a smaller one takes effect at once. */
  setCap(capBytes: number): void {
    this.capBytes = capBytes;
    this.keepWithinCap();
  }

  /** Every picture gone ("clear pictures"); `compact` then gives the file's space back. */
  clear(): void {
    this.db.exec('DELETE FROM picture');
  }

  /** Gives the space of what was cleared back to the disk (on the fetching's thread: it takes a while). */
  compact(): void {
    this.db.exec('VACUUM');
  }

  stats(): PictureCacheStats {
    const r = this.db
      .prepare(
        'SELECT count(bytes) AS pictures, count(*) - count(bytes) AS missing, coalesce(sum(size), 0) AS bytes FROM picture',
      )
      .get() as PictureCacheStats;
    return r;
  }

  close(): void {
    this.db.close();
  }

  /** Past the cap: the pictures shown longest ago go first. */
  private keepWithinCap(): void {
    let total = this.stats().bytes;
    if (total <= this.capBytes) return;
    const oldest = this.db
      .prepare('SELECT url, size FROM picture ORDER BY shown_at, fetched_at')
      .iterate() as Iterable<{
      url: string;
      size: number;
    }>;
    const gone: string[] = [];
    for (const r of oldest) {
      if (total <= this.capBytes) break;
      gone.push(r.url);
      total -= r.size;
    }
    const drop = this.db.prepare('DELETE FROM picture WHERE url = ?');
    this.db.transaction(() => gone.forEach((u) => drop.run(u)))();
  }
}

/** A WAL read whole to find a cache's mark no larger than this (a cache's is a few MB; a store's may be GBs). */
const WAL_READ_MAX = 16_000_000;

/**
 * Why what sits at `file` is not a picture cache to open, told by its bytes, nothing opened; null: a
 * picture cache, or nothing yet (no file, or an empty one with no WAL beside it: nothing to lose). The
 * main file's header says: this build marks a cache before it is a WAL's. A cache an earlier build made
 * (marked last) may hold its mark in its WAL still: looked for there where the main file has none (or is
 * empty) and the WAL is small.
 */
function notACache(file: string): string | null {
  const stat = statOf(file);
  if (stat?.isDirectory()) return `${file} is a folder, left as it is`;
  if (stat !== null && !stat.isFile()) return `${file} is not a file, left as it is`;
  const wal = statOf(`${file}-wal`)?.size ?? 0;
  const empty = stat === null || stat.size === 0;
  if (empty && wal === 0) return null;
  const id = empty ? 0 : mainFileHeader(file)?.applicationId;
  if (id === CACHE_APPLICATION_ID) return null;
  const marked =
    id === 0 && wal > 0 && wal <= WAL_READ_MAX && headerFromBytes(file)?.applicationId === CACHE_APPLICATION_ID;
  return marked ? null : foreign(file);
}

function statOf(file: string): fs.Stats | null {
  try {
    return fs.statSync(file);
  } catch {
    return null;
  }
}

function foreign(file: string): string {
  return `${file} is not a picture cache, left as it is`;
}

/** A picture cache that fails its check, or that SQLite finds damaged or no database. */
function isDamage(e: unknown): boolean {
  const code = typeof e === 'object' && e !== null ? (e as { code?: unknown }).code : undefined;
  return e instanceof Damaged || code === 'SQLITE_CORRUPT' || code === 'SQLITE_NOTADB';
}

/** The cache's file: beside a store file; for a store on a server, in the app's own folder. */
export function pictureCacheFile(storePath: string): string {
  if (isServerAddress(storePath)) return path.join(userDataDir(), 'brick-work.pictures.sqlite');
  const name = path.basename(storePath).replace(/\.sqlite$/, '');
  return path.join(path.dirname(storePath), `${name}.pictures.sqlite`);
}
