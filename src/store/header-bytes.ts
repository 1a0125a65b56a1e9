/**
 * A store's application id and schema version read from its bytes, SQLite never opened (issue 45): from
 * page 1 as the last commit left it — the newest committed copy of page 1 in the `-wal` if there is
 * one, else the main file's. Opening a connection, even read-only, would rebuild the `-shm` beside a
 * store a process left without closing; reading the bytes leaves every file as it was.
 *
 * The WAL is read as SQLite reads it (sqlite.org/fileformat2.html#walformat): a 32-byte header, then
 * frames of a 24-byte header and a page; a frame counts only while its salts match the header's and its
 * cumulative checksum holds, and only up to the last commit frame (one that gives the database's size).
 */
import fs from 'node:fs';

const WAL_MAGIC_LE = 0x377f0682;
const WAL_MAGIC_BE = 0x377f0683;

export interface HeaderBytes {
  readonly applicationId: number;
  readonly userVersion: number;
}

/** Page 1's application id and user version as last committed; null when the bytes can't tell (SQLite then decides). */
export function headerFromBytes(file: string): HeaderBytes | null {
  const page1 = walPage1(`${file}-wal`) ?? readAt(file, 0, 100);
  if (page1 === null || page1.length < 100) return null;
  return { userVersion: page1.readInt32BE(60), applicationId: page1.readInt32BE(68) };
}

/**
 * Page 1's application id and user version as the main file holds them, its `-wal` not read: 100 bytes
 * read, whatever the size of a WAL beside it.
 */
export function mainFileHeader(file: string): HeaderBytes | null {
  const page1 = readAt(file, 0, 100);
  if (page1 === null || page1.length < 100) return null;
  return { userVersion: page1.readInt32BE(60), applicationId: page1.readInt32BE(68) };
}

/**
 * Whether page 1 as last committed lists any schema object (a table, an index): from its b-tree header
 * (the 8 or 12 bytes after the file header), a leaf's cell count, or an interior page (more than one page
 * of them). A SQLite file that lists none is empty. Null when the bytes can't tell.
 */
export function page1HoldsSchema(file: string): boolean | null {
  const page1 = walPage1(`${file}-wal`, 108) ?? readAt(file, 0, 108);
  if (page1 === null || page1.length < 108) return null;
  if (page1[100] === 0x05) return true;
  if (page1[100] === 0x0d) return page1.readUInt16BE(103) > 0;
  return null;
}

function readAt(file: string, position: number, length: number): Buffer | null {
  let fd: number;
  try {
    fd = fs.openSync(file, 'r');
  } catch {
    return null;
  }
  try {
    const b = Buffer.alloc(length);
    const n = fs.readSync(fd, b, 0, length, position);
    return b.subarray(0, n);
  } finally {
    fs.closeSync(fd);
  }
}

/** The newest committed copy of page 1 in a WAL (its first `length` bytes), or null: no WAL, or none there. */
export function walPage1(wal: string, length = 100): Buffer | null {
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(wal);
  } catch {
    return null;
  }
  if (bytes.length < 32) return null;
  const magic = bytes.readUInt32BE(0);
  if (magic !== WAL_MAGIC_LE && magic !== WAL_MAGIC_BE) return null;
  const bigEndian = magic === WAL_MAGIC_BE;
  const pageSize = bytes.readUInt32BE(8) === 1 ? 65536 : bytes.readUInt32BE(8);
  if (pageSize < 512 || (pageSize & (pageSize - 1)) !== 0) return null;
  const salt1 = bytes.readUInt32BE(16);
  const salt2 = bytes.readUInt32BE(20);
  let sum = checksum(bytes, 0, 24, bigEndian, [0, 0]);
  if (sum[0] !== bytes.readUInt32BE(24) || sum[1] !== bytes.readUInt32BE(28)) return null;

  let page1: Buffer | null = null;
  let committed: Buffer | null = null;
  for (let at = 32; at + 24 + pageSize <= bytes.length; at += 24 + pageSize) {
    if (bytes.readUInt32BE(at + 8) !== salt1 || bytes.readUInt32BE(at + 12) !== salt2) break;
    sum = checksum(bytes, at, 8, bigEndian, sum);
    sum = checksum(bytes, at + 24, pageSize, bigEndian, sum);
    if (sum[0] !== bytes.readUInt32BE(at + 16) || sum[1] !== bytes.readUInt32BE(at + 20)) break;
    if (bytes.readUInt32BE(at) === 1) page1 = bytes.subarray(at + 24, at + 24 + Math.min(length, pageSize));
    if (bytes.readUInt32BE(at + 4) !== 0) committed = page1; // a commit frame: what it holds is the store now
  }
  return committed;
}

/** SQLite's WAL checksum over `length` bytes (a multiple of 8) at `at`, continuing `[s0, s1]`. */
function checksum(b: Buffer, at: number, length: number, bigEndian: boolean, [s0, s1]: number[]): [number, number] {
  let a = s0 ?? 0;
  let c = s1 ?? 0;
  for (let i = at; i < at + length; i += 8) {
    const x0 = bigEndian ? b.readUInt32BE(i) : b.readUInt32LE(i);
    const x1 = bigEndian ? b.readUInt32BE(i + 4) : b.readUInt32LE(i + 4);
    a = (a + x0 + c) >>> 0;
    c = (c + x1 + a) >>> 0;
  }
  return [a, c];
}
