import zlib from 'node:zlib';
import { BrickWorkError, quote } from '../vocabulary/errors.ts';
import { CATALOGUE_FILE_LIMIT, tooBig, tooBigUnpacked } from '../platform/file-limits.ts';
import { parseError } from '../text/position.ts';

/** A catalogue file as it is handed over: its name and its bytes, plain or gzipped. */
interface Packed {
  readonly name: string;
  readonly content: Uint8Array;
}

/** The pieces a file is read in. */
const PIECE_BYTES = 64 * 1024;

/**
 * What a gzipped file unpacks to is held whole up to this much. Past it the rest is unpacked only to be
 * counted, so that a bomb is refused at the cap without being held (issue 62: a 4 MB file unpacking to
 * 4 GB took 387 MB before its refusal); a file that fits is then unpacked again, into its own size.
 */
const HELD_BYTES = 16 * 1024 * 1024;

export function isGzip(bytes: Uint8Array): boolean {
  return bytes[0] === 0x1f && bytes[1] === 0x8b;
}

/**
 * A catalogue file's text bytes, a piece at a time: its content, or what its gzip data unpack to,
 * unpacked only as the pieces are taken, and refused as `too-big` once they pass the cap.
 */
export async function* plainPieces(file: Packed): AsyncGenerator<Uint8Array, void, undefined> {
  const { name, content } = file;
  if (content.byteLength > CATALOGUE_FILE_LIMIT) throw tooBig(name, 'catalogue', content.byteLength);
  if (!isGzip(content)) {
    for (let at = 0; at < content.byteLength; at += PIECE_BYTES) yield content.subarray(at, at + PIECE_BYTES);
    return;
  }
  // The stream unpacks a piece more only when the last one has been taken.
  const gunzip = zlib.createGunzip({ chunkSize: PIECE_BYTES });
  gunzip.end(content);
  let total = 0;
  try {
    for await (const piece of gunzip as AsyncIterable<Buffer>) {
      total += piece.byteLength;
      if (total > CATALOGUE_FILE_LIMIT) throw tooBigUnpacked(name, 'catalogue');
      yield piece;
    }
  } catch (e) {
    if (e instanceof BrickWorkError || !isZlibError(e)) throw e;
    throw parseError(name, `the gzip data can't be read (${quote(e.message)})`);
  } finally {
    gunzip.destroy();
  }
}

/** zlib's own errors carry its codes (Z_DATA_ERROR, Z_BUF_ERROR: a damaged or cut file). */
function isZlibError(e: unknown): e is Error {
  return e instanceof Error && /^Z_/.test(String((e as NodeJS.ErrnoException).code ?? ''));
}

/**
 * A catalogue file's text bytes whole: its content as it is, or what its gzip data unpack to — held
 * only when it fits the cap (`HELD_BYTES`).
 */
export async function plainBytes(file: Packed): Promise<Uint8Array> {
  const { name, content } = file;
  if (content.byteLength > CATALOGUE_FILE_LIMIT) throw tooBig(name, 'catalogue', content.byteLength);
  if (!isGzip(content)) return content;
  const held: Uint8Array[] = [];
  let total = 0;
  for await (const piece of plainPieces(file)) {
    total += piece.byteLength;
    if (total <= HELD_BYTES) held.push(piece);
    else held.length = 0;
  }
  if (total <= HELD_BYTES) return Buffer.concat(held, total);
  // Counted to its end within the cap: unpacked again, into its own size.
  const whole = Buffer.allocUnsafe(total);
  let at = 0;
  for await (const piece of plainPieces(file)) {
    if (at + piece.byteLength > total) throw new Error(`${name} unpacked to more bytes the second time`);
    whole.set(piece, at);
    at += piece.byteLength;
  }
  return whole.subarray(0, at);
}
