import fs from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';

/**
 * Small hostile files (issue 62), made by the tests a megabyte at a time: never held whole in the test's
 * own memory.
 */

const MB = 1024 * 1024;

/** `count` copies of `text`, a megabyte (or so) a piece. */
export function* repeated(text: string, count: number): Generator<Buffer> {
  const perPiece = Math.max(1, Math.floor(MB / text.length));
  const piece = Buffer.from(text.repeat(perPiece));
  let left = count;
  for (; left >= perPiece; left -= perPiece) yield piece;
  if (left > 0) yield Buffer.from(text.repeat(left));
}

/** JSON nested `depth` deep: `depth` "[" then `depth` "]". */
export function* nested(depth: number): Generator<Buffer> {
  yield* repeated('[', depth);
  yield* repeated(']', depth);
}

/** The pieces gzipped, as one gzip member. */
export async function gzipped(pieces: Iterable<Buffer>): Promise<Buffer> {
  const out: Buffer[] = [];
  await pipeline(Readable.from(pieces), zlib.createGzip(), async (source: AsyncIterable<Buffer>) => {
    for await (const b of source) out.push(b);
  });
  return Buffer.concat(out);
}

/** Writes the pieces to `file`. */
export function writePieces(file: string, pieces: Iterable<Buffer>): void {
  const fd = fs.openSync(file, 'w');
  try {
    for (const piece of pieces) fs.writeSync(fd, piece);
  } finally {
    fs.closeSync(fd);
  }
}
