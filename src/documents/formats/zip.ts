/**
 * A ZIP archive read as far as a Studio model needs (issue 62): its directory — how many entries it says
 * it holds, then each entry's name and sizes — and one entry unpacked, stored or deflated, plain or
 * ZipCrypto-encrypted, no further than the size the directory states and checked by its CRC. Read by the
 * format's description (PKWARE's APPNOTE) on the file's bytes: nothing is made for an entry but its
 * directory record, and no folder for each prefix of a name (a library's `getEntries()` made one for each
 * of a 65,534-byte name's 32,767 prefixes, and took gigabytes).
 */
import zlib from 'node:zlib';

/** The end of the central directory: where its records are and how many it says there are. */
export interface ZipEnd {
  readonly count: number;
  readonly offset: number;
  /** Where the end record starts: the directory's records lie before it. */
  readonly end: number;
}

/** One entry as the central directory records it. */
export interface ZipEntry {
  /** Its name as a Latin-1 string: only compared with ASCII names here. */
  readonly name: string;
  /** Its name's length in bytes, as recorded. */
  readonly nameBytes: number;
  readonly flags: number;
  readonly method: number;
  /** MS-DOS modification time: ZipCrypto checks its password by it where sizes follow the data. */
  readonly time: number;
  readonly crc: number;
  readonly packedSize: number;
  /** The size it says it unpacks to. */
  readonly size: number;
  readonly localOffset: number;
}

const END_SIGNATURE = 0x06054b50;
const CENTRAL_SIGNATURE = 0x02014b50;
const LOCAL_SIGNATURE = 0x04034b50;
const END_LENGTH = 22;
const CENTRAL_LENGTH = 46;
const LOCAL_LENGTH = 30;
/** The longest comment after the end record: it is looked for no further back. */
const COMMENT_MAX = 0xffff;
const ENCRYPTED = 0x1;
const SIZES_AFTER_DATA = 0x8;
const STORED = 0;
const DEFLATED = 8;

/** The archive's end record, or null when it has none that fits (not a ZIP, or cut short). */
export function zipEnd(bytes: Buffer): ZipEnd | null {
  const last = bytes.length - END_LENGTH;
  for (let at = last; at >= 0 && at >= last - COMMENT_MAX; at--) {
    if (bytes[at] !== 0x50 || bytes.readUInt32LE(at) !== END_SIGNATURE) continue;
    if (at + END_LENGTH + bytes.readUInt16LE(at + 20) > bytes.length) continue;
    return { count: bytes.readUInt16LE(at + 10), offset: bytes.readUInt32LE(at + 16), end: at };
  }
  return null;
}

/** The entries the directory records, read from their records only; null when one is not where it says. */
export function zipEntries(bytes: Buffer, end: ZipEnd): ZipEntry[] | null {
  const entries: ZipEntry[] = [];
  let at = end.offset;
  for (let i = 0; i < end.count; i++) {
    if (at + CENTRAL_LENGTH > end.end || bytes.readUInt32LE(at) !== CENTRAL_SIGNATURE) return null;
    const nameBytes = bytes.readUInt16LE(at + 28);
    const next = at + CENTRAL_LENGTH + nameBytes + bytes.readUInt16LE(at + 30) + bytes.readUInt16LE(at + 32);
    if (next > end.end) return null;
    entries.push({
      name: bytes.toString('latin1', at + CENTRAL_LENGTH, at + CENTRAL_LENGTH + nameBytes),
      nameBytes,
      flags: bytes.readUInt16LE(at + 8),
      method: bytes.readUInt16LE(at + 10),
      time: bytes.readUInt16LE(at + 12),
      crc: bytes.readUInt32LE(at + 16),
      packedSize: bytes.readUInt32LE(at + 20),
      size: bytes.readUInt32LE(at + 24),
      localOffset: bytes.readUInt32LE(at + 42),
    });
    at = next;
  }
  return entries;
}

const isEncrypted = (entry: ZipEntry) => (entry.flags & ENCRYPTED) !== 0;

/**
 * An entry's content, or why not: `password` when ZipCrypto's check byte says the password is another,
 * `method` when it is packed in a way not read here (neither stored nor deflated), `damaged` when its data is
 * not where or what its records say — more than its stated size, another length or another CRC.
 */
export function unpackEntry(
  bytes: Buffer,
  entry: ZipEntry,
  password: string,
): { ok: true; content: Buffer } | { ok: false; why: 'password' | 'method' | 'damaged' } {
  if (entry.method !== STORED && entry.method !== DEFLATED) return { ok: false, why: 'method' };
  const local = entry.localOffset;
  if (local + LOCAL_LENGTH > bytes.length || bytes.readUInt32LE(local) !== LOCAL_SIGNATURE)
    return { ok: false, why: 'damaged' };
  const start = local + LOCAL_LENGTH + bytes.readUInt16LE(local + 26) + bytes.readUInt16LE(local + 28);
  if (start + entry.packedSize > bytes.length) return { ok: false, why: 'damaged' };
  let packed = bytes.subarray(start, start + entry.packedSize);
  if (isEncrypted(entry)) {
    if (packed.length < 12) return { ok: false, why: 'damaged' };
    const plain = zipDecrypt(packed, password, checkByte(entry));
    if (plain === null) return { ok: false, why: 'password' };
    packed = plain;
  }
  let content: Buffer;
  if (entry.method === STORED) content = packed;
  else {
    try {
      // Never past the size it states: more is a damaged (or lying) archive, and is not unpacked.
      content = zlib.inflateRawSync(packed, { maxOutputLength: Math.max(1, entry.size) });
    } catch {
      return { ok: false, why: 'damaged' };
    }
  }
  if (content.length !== entry.size || zlib.crc32(content) >>> 0 !== entry.crc) return { ok: false, why: 'damaged' };
  return { ok: true, content };
}

/** What ZipCrypto's last header byte must be: the CRC's high byte, or the time's where sizes follow the data. */
function checkByte(entry: ZipEntry): number {
  return (entry.flags & SIZES_AFTER_DATA) !== 0 ? (entry.time >>> 8) & 0xff : entry.crc >>> 24;
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crcByte = (crc: number, b: number) => ((CRC_TABLE[(crc ^ b) & 0xff] as number) ^ (crc >>> 8)) >>> 0;

/**
 * ZipCrypto (PKWARE's traditional encryption) undone: three keys from the password, a 12-byte header whose
 * last byte checks the password, then the data. Null when the check byte says the password is another.
 */
function zipDecrypt(data: Buffer, password: string, check: number): Buffer | null {
  let k0 = 0x12345678;
  let k1 = 0x23456789;
  let k2 = 0x34567890;
  const update = (b: number) => {
    k0 = crcByte(k0, b);
    k1 = (Math.imul((k1 + (k0 & 0xff)) >>> 0, 134775813) + 1) >>> 0;
    k2 = crcByte(k2, k1 >>> 24);
  };
  for (const b of Buffer.from(password, 'latin1')) update(b);
  const out = Buffer.allocUnsafe(data.length);
  for (let i = 0; i < data.length; i++) {
    const t = (k2 | 2) & 0xffff;
    const p = (data[i] as number) ^ ((Math.imul(t, t ^ 1) >>> 8) & 0xff);
    out[i] = p;
    update(p);
    // The header's last byte: another password is known here, before the data is decrypted.
    if (i === 11 && p !== check) return null;
  }
  return out.subarray(12);
}
