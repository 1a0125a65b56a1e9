/**
 * How big a file brick-work reads may be (SPEC §11), by what it is, and the refusal of one bigger — the
 * same words wherever it comes in (the CLI, the app's dialogs and Finder, the browser host's uploads):
 * the cap and the file's size, before its content is read.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BrickWorkError } from '../vocabulary/errors.ts';

const MiB = 1024 * 1024;

/** An order document (or a compare side): the largest real order is far smaller. */
export const DOCUMENT_SIZE_LIMIT = 20 * MiB;
/**
 * The most lines one document may have (SPEC §11): CSV rows, XML items, a model's parts in their colours.
 * Twenty megabytes of `3001,1` are 2.5 million lines, which would take gigabytes to hold; the readers stop
 * as soon as they pass this.
 */
export const DOCUMENT_LINE_LIMIT = 200_000;
/** A catalogue file (BrickLink's full items XML is tens of MB), and what a gzipped one unpacks to. */
export const CATALOGUE_FILE_LIMIT = 256 * MiB;

export type FilePurpose = 'document' | 'catalogue';

export const FILE_LIMITS: Readonly<Record<FilePurpose, number>> = {
  document: DOCUMENT_SIZE_LIMIT,
  catalogue: CATALOGUE_FILE_LIMIT,
};

const WHAT: Readonly<Record<FilePurpose, string>> = { document: 'a document', catalogue: 'a catalogue file' };

function megabytes(bytes: number): string {
  return `${(bytes / MiB).toLocaleString('en', { maximumFractionDigits: 1 })} MB`;
}

/** The refusal of a file over its cap; `size` null when it has no size of its own (a device, a pipe). */
export function tooBig(name: string, purpose: FilePurpose, size: number | null): BrickWorkError {
  const cap = megabytes(FILE_LIMITS[purpose]);
  return new BrickWorkError(
    'too-big',
    size === null
      ? `${name} gives more than the ${cap} ${WHAT[purpose]} may be (it has no size of its own: a device or a pipe), so reading stopped there; nothing was read from it.`
      : `${name} is ${megabytes(size) === cap ? `${size.toLocaleString('en')} bytes` : megabytes(size)}, over the ${cap} ${WHAT[purpose]} may be; it was not read.`,
  );
}

/** The refusal of a gzipped file that unpacks to more than its cap: unpacking stops as it passes the cap. */
export function tooBigUnpacked(name: string, purpose: FilePurpose): BrickWorkError {
  return new BrickWorkError(
    'too-big',
    `${name} unpacks to more than the ${megabytes(FILE_LIMITS[purpose])} ${WHAT[purpose]} may be, so unpacking stopped there; it was not read.`,
  );
}

/**
 * A file's content, read only when it fits: a file's size is checked before a byte is read; what has no
 * size (a device, a pipe, /proc) is read to a private temporary file up to the cap, never held beyond a
 * piece at a time, and refused once it passes it. A file that can't be read is `not-found`, in words.
 */
export function readFileWithin(file: string, purpose: FilePurpose): { name: string; content: Uint8Array } {
  const name = path.basename(file);
  const cap = FILE_LIMITS[purpose];
  let fd: number;
  try {
    fd = fs.openSync(file, 'r');
  } catch (e) {
    throw cannotRead(file, e);
  }
  try {
    const stat = fs.fstatSync(fd);
    if (stat.isDirectory()) throw new BrickWorkError('not-found', `${file} is a folder, not a file.`);
    if (stat.isFile() && stat.size > cap) throw tooBig(name, purpose, stat.size);
    if (stat.isFile() && stat.size > 0) return { name, content: readWhole(fd, stat.size, name, purpose) };
    return { name, content: readUnsized(fd, cap, name, purpose) };
  } finally {
    fs.closeSync(fd);
  }
}

function cannotRead(file: string, e: unknown): BrickWorkError {
  const code = (e as NodeJS.ErrnoException).code ?? (e as Error).message;
  return new BrickWorkError('not-found', `${file} can't be read (${code}).`);
}

/** A regular file of known size, read whole — unless it grew past the cap meanwhile. */
function readWhole(fd: number, size: number, name: string, purpose: FilePurpose): Uint8Array {
  const content = Buffer.allocUnsafe(size);
  let got = 0;
  while (got < size) {
    const n = fs.readSync(fd, content, got, size - got, got);
    if (n === 0) return content.subarray(0, got);
    got += n;
  }
  if (fs.readSync(fd, Buffer.alloc(1), 0, 1, got) > 0 && fs.fstatSync(fd).size > FILE_LIMITS[purpose])
    throw tooBig(name, purpose, fs.fstatSync(fd).size);
  return content;
}

/** A stream of unknown length: spooled to a private file a piece at a time, refused past the cap. */
function readUnsized(fd: number, cap: number, name: string, purpose: FilePurpose): Uint8Array {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'brick-work-read-'));
  const spool = path.join(dir, 'content');
  const out = fs.openSync(spool, 'w', 0o600);
  try {
    const piece = Buffer.allocUnsafe(1024 * 1024);
    let total = 0;
    for (;;) {
      const n = fs.readSync(fd, piece, 0, piece.length, null);
      if (n === 0) break;
      total += n;
      if (total > cap) throw tooBig(name, purpose, null);
      fs.writeSync(out, piece, 0, n);
    }
    fs.closeSync(out);
    return fs.readFileSync(spool);
  } finally {
    try {
      fs.closeSync(out);
    } catch {
      // closed above
    }
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
