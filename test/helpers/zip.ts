/**
 * ZIP archives the tests make (issue 49): Studio `.io` files, plain or encrypted with ZipCrypto (PKWARE's
 * traditional encryption, as older Studio files are), and hostile ones (a size the directory states
 * falsely). Written here, by the format's description, so that no library both writes and reads them.
 */
import zlib from 'node:zlib';

export interface ZipEntry {
  readonly name: string;
  readonly data: Uint8Array | string;
  /** Encrypted with ZipCrypto under this password. */
  readonly password?: string;
  /** Stated as its unpacked size in the headers instead of the true one (a lying archive). */
  readonly statedSize?: number;
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crcByte = (crc: number, b: number) => ((CRC_TABLE[(crc ^ b) & 0xff] as number) ^ (crc >>> 8)) >>> 0;

/** ZipCrypto: the 12-byte header then the data, each byte through the three keys. */
function zipCrypto(data: Buffer, password: string, crc: number): Buffer {
  let k0 = 0x12345678;
  let k1 = 0x23456789;
  let k2 = 0x34567890;
  const update = (b: number) => {
    k0 = crcByte(k0, b);
    k1 = (Math.imul((k1 + (k0 & 0xff)) >>> 0, 134775813) + 1) >>> 0;
    k2 = crcByte(k2, k1 >>> 24);
  };
  for (const b of Buffer.from(password, 'latin1')) update(b);
  // Fixed, not random: a wrong password passes ZipCrypto's one check byte once in 256 headers, and a test
  // of one must not pass or fail by chance.
  const header = Buffer.from('brick-work!!', 'latin1');
  header[11] = (crc >>> 24) & 0xff;
  const plain = Buffer.concat([header, data]);
  const out = Buffer.alloc(plain.length);
  for (let i = 0; i < plain.length; i++) {
    const t = (k2 | 2) & 0xffff;
    const p = plain[i] as number;
    out[i] = p ^ ((Math.imul(t, t ^ 1) >>> 8) & 0xff);
    update(p);
  }
  return out;
}

export function zipFile(entries: readonly ZipEntry[]): Uint8Array {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const raw = Buffer.from(typeof e.data === 'string' ? Buffer.from(e.data) : e.data);
    const crc = zlib.crc32(raw) >>> 0;
    const deflated = zlib.deflateRawSync(raw);
    const body = e.password === undefined ? deflated : zipCrypto(deflated, e.password, crc);
    const name = Buffer.from(e.name);
    const flags = e.password === undefined ? 0 : 1;
    const size = e.statedSize ?? raw.length;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(flags, 6);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(flags, 8);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(body.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, body);
    centrals.push(central, name);
    offset += local.length + name.length + body.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return new Uint8Array(Buffer.concat([...locals, directory, end]));
}
