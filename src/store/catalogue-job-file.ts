/**
 * catalogue-job.json (SPEC §4): the catalogue job's record beside a SQLite store file. Every write is
 * atomic (temporary file, fsync, rename), so a crash never leaves it torn; its check-and-claim is
 * serialised by the caller through the store's write lock (`catalogue-job-place.ts`).
 */
import fs from 'node:fs';
import path from 'node:path';
import { writeFileAtomically } from '../platform/files.ts';
import type { CatalogueJobPlace, StoredJobRecord } from './catalogue-job-place.ts';
import { STORE_FILE_NAME } from './paths.ts';

export function catalogueJobPath(storePath: string): string {
  const base = path.basename(storePath);
  const name = base === STORE_FILE_NAME ? 'catalogue-job.json' : `${base}.catalogue-job.json`;
  return path.join(path.dirname(storePath), name);
}

/** What the file holds; one that can't be read says why. */
export function readCatalogueJobFile(file: string): StoredJobRecord {
  try {
    return { status: 'text', text: fs.readFileSync(file, 'utf8') };
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { status: 'none' };
    return { status: 'unreadable', problem: (e as Error).message };
  }
}

/**
 * The file is padded with spaces (JSON allows them) to whole blocks of this size, so that the disk has
 * already given it room for the next state: a load that fills the disk can still say it failed.
 */
const BLOCK = 4096;

function write(file: string, record: object): void {
  const json = `${JSON.stringify(record, null, 2)}\n`;
  const text = json.padEnd(Math.ceil((Buffer.byteLength(json) + 1) / BLOCK) * BLOCK, ' ');
  try {
    writeFileAtomically(file, text);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== 'ENOSPC' && code !== 'EDQUOT') throw e;
    // No room for a new copy: over the old one, in the blocks it already has (one block, written whole,
    // is not torn in practice; a torn one reads as corrupt, which counts as no job — never busy for good).
    if (!rewriteInPlace(file, text)) throw e;
  }
}

/** Writes `text` over `file` if it fits in the room the file already has; whether it did. */
function rewriteInPlace(file: string, text: string): boolean {
  const bytes = Buffer.from(text);
  let fd: number;
  try {
    fd = fs.openSync(file, 'r+');
  } catch {
    return false;
  }
  try {
    if (fs.fstatSync(fd).size < bytes.length) return false;
    fs.writeSync(fd, bytes, 0, bytes.length, 0);
    fs.ftruncateSync(fd, bytes.length);
    fs.fsyncSync(fd);
    return true;
  } catch {
    return false;
  } finally {
    fs.closeSync(fd);
  }
}

/** Temporary files left by writers that were killed mid-write. Only called under the write lock. */
function removeLeftovers(file: string): void {
  const dir = path.dirname(file);
  const prefix = `${path.basename(file)}.`;
  for (const name of fs.readdirSync(dir)) {
    if (name.startsWith(prefix) && name.endsWith('.tmp')) fs.rmSync(path.join(dir, name), { force: true });
  }
}

/** The file beside the store at `storePath` as the catalogue job's place. */
export function catalogueJobFile(storePath: string): CatalogueJobPlace {
  const file = catalogueJobPath(storePath);
  return {
    name: file,
    read: () => readCatalogueJobFile(file),
    write: (record) => write(file, record),
    // Seen by every desk as soon as it is renamed into place.
    writeProgress: (record) => {
      write(file, record);
      return true;
    },
    tidy: () => removeLeftovers(file),
  };
}
