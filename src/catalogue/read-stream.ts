import { isUtf8 } from 'node:buffer';
import { BrickWorkError, type ErrorValue } from '../vocabulary/errors.ts';
import type { ItemType } from '../vocabulary/item-types.ts';
import { foldName } from '../placement/fold.ts';
import { parseCsv, type CsvDelimiter } from '../text/csv.ts';
import { inKeyOrder, inStrictKeyOrder } from '../store/catalogue.ts';
import {
  isJsonFile,
  readCatalogueTable,
  readJsonCatalogue,
  readPlainCatalogue,
  unpacked,
  type NamedContent,
} from './read-file.ts';
import type { CatalogueRecord } from './records.ts';

/**
 * A catalogue file read on the reader thread while the catalogue job writes what it has read so far
 * (SPEC §12: parsing on a second thread while the writer inserts). A delimited file is read piece by piece,
 * each piece's rows sent as soon as they are read — its items' names folded and in key order — so the
 * job's own thread only writes. JSON is read as it unpacks; XML and the cross-references are read whole;
 * each is then sent in parts.
 * Every row still comes from one check of the whole file: a bad row ends the stream with the message
 * `readCatalogue` gives (its line counted in the whole file), and the job rolls back what it wrote.
 */

/**
 * Rows of one piece of a delimited file: about this many bytes a piece. Small enough that its text stays
 * out of V8's large-object space (a 128 KB piece took 15 times as long to decode), and the first piece
 * smaller still, so that the job starts writing at once.
 */
export const PIECE_BYTES = 32 * 1024;
const FIRST_PIECE_BYTES = 4 * 1024;
/** Rows a message carries when a file is read whole. */
const ROWS_A_MESSAGE = 5_000;

/** What the reader thread sends for a file, in order: its size, its rows in parts, then its end (or an error). */
export type StreamMessage =
  | { readonly kind: 'start'; readonly estimatedRows: number }
  /** `source`: what each row's `source` is, the same for a whole file. */
  | {
      readonly kind: 'rows';
      readonly source: string;
      /** The rows that are not items, then the items, in key order. */
      readonly records: readonly CatalogueRecord[];
      /** No key is given twice among the items: they need no check before they go many to a statement. */
      readonly distinctKeys: boolean;
    }
  | {
      readonly kind: 'end';
      readonly name: string;
      readonly format: string;
      readonly source: string;
      readonly rows: number;
    }
  | { readonly kind: 'error'; readonly error: ErrorValue };

/** A file being read on the reader thread. */
export interface FileStream {
  /** The next message; rejects with `ReaderStopped` when the thread ended before the file did. */
  next(): Promise<StreamMessage>;
  /** The job stops: the rest of the file is not wanted. */
  cancel(): void;
}

/** The reader thread, as the catalogue job sees it. */
export interface ReaderThread {
  stream(file: NamedContent, type: ItemType | null): FileStream;
}

/** The reader thread ended while it read a file: the job reads that file on its own thread instead. */
export class ReaderStopped extends Error {}

/**
 * Reads `file` and hands each message to `send` (the reader thread's work, and what a test runs on one
 * thread). `stopped` is asked between pieces. Bugs (not a bad file) are thrown.
 */
export async function streamFile(
  file: NamedContent,
  type: ItemType | null,
  send: (m: StreamMessage) => void,
  stopped: () => boolean = () => false,
): Promise<void> {
  try {
    // JSON is read as it unpacks, never whole (issue 62); any other file is unpacked first.
    const json = await isJsonFile(file);
    const bytes = json ? null : await unpacked(file);
    const plan = bytes === null ? null : delimited(bytes);
    if (plan === null) {
      const whole = bytes === null ? await readJsonCatalogue(file) : readPlainCatalogue(file.name, bytes, { type });
      send({ kind: 'start', estimatedRows: whole.records.length });
      for (let i = 0; i < whole.records.length && !stopped(); i += ROWS_A_MESSAGE)
        send({ kind: 'rows', source: whole.source, ...prepared(whole.records.slice(i, i + ROWS_A_MESSAGE)) });
      send({ kind: 'end', name: whole.name, format: whole.format, source: whole.source, rows: whole.records.length });
      return;
    }
    send({ kind: 'start', estimatedRows: plan.estimatedRows });
    let at = plan.dataStart;
    let line = plan.firstLine;
    let rows = 0;
    let head: { format: string; source: string } | null = null;
    while (at < plan.buf.byteLength) {
      if (stopped()) return;
      const end = pieceEnd(plan.buf, at, rows === 0 ? FIRST_PIECE_BYTES : PIECE_BYTES);
      // The whole file is valid UTF-8 (`delimited`) and a piece ends at an LF, so no check is needed here.
      const text = plan.buf.toString('utf8', at, end);
      const table = parseCsv(text, file.name, {
        delimiter: plan.delimiter,
        continues: { header: plan.header, firstLine: line },
      });
      const piece = readCatalogueTable(file.name, table, type);
      head ??= { format: piece.format, source: piece.source };
      if (table.rows.length > 0) send({ kind: 'rows', source: piece.source, ...prepared(piece.records) });
      rows += piece.records.length;
      line += lineEnds(plan.buf, at, end);
      at = end;
      // Between pieces: a cancel can arrive.
      await new Promise((r) => setImmediate(r));
    }
    if (head === null || rows === 0) {
      // A header and no rows: read whole, it says what such a file is (or loads nothing).
      const whole = readPlainCatalogue(file.name, plan.buf, { type });
      send({ kind: 'end', name: whole.name, format: whole.format, source: whole.source, rows: whole.records.length });
      return;
    }
    send({ kind: 'end', name: file.name, format: head.format, source: head.source, rows });
  } catch (e) {
    if (e instanceof BrickWorkError) send({ kind: 'error', error: e.toValue() });
    else throw e;
  }
}

/**
 * Items with their folded names (`name_key`) and in key order, after the other rows, so that the job's
 * thread only writes them — and whether their keys are distinct, which this thread checks for it.
 */
function prepared(records: readonly CatalogueRecord[]): { records: CatalogueRecord[]; distinctKeys: boolean } {
  const items: Extract<CatalogueRecord, { kind: 'item' }>[] = [];
  const others: CatalogueRecord[] = [];
  for (const r of records) {
    if (r.kind === 'item')
      items.push({
        kind: 'item',
        type: r.type,
        no: r.no,
        name: r.name,
        categoryId: r.categoryId,
        nameKey: foldName(r.name),
      });
    else others.push(r);
  }
  const sorted = inKeyOrder(items);
  return {
    records: others.length === 0 ? sorted : [...others, ...sorted],
    distinctKeys: inStrictKeyOrder(sorted),
  };
}

interface Plan {
  readonly buf: Buffer;
  readonly header: readonly string[];
  readonly delimiter: CsvDelimiter;
  /** Where the first data row starts, and its line. */
  readonly dataStart: number;
  readonly firstLine: number;
  readonly estimatedRows: number;
}

/**
 * How a delimited file is read in pieces: its header (on the first line, without quotes), where its rows
 * start; null for what is read whole — XML, JSON, the cross-references, text that is not UTF-8 (its
 * message names the byte), or lines ended by CR alone.
 */
function delimited(bytes: Uint8Array): Plan | null {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const bom = buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf ? 3 : 0;
  const first = buf[bom];
  if (first === undefined || first === 0x3c || first === 0x7b || first === 0x5b || first === 0x20 || first === 0x0a)
    return null;
  if (first === 0x0d || first === 0x09 || buf.subarray(0, 64 * 1024).includes('external_ids')) return null;
  const lf = buf.indexOf(0x0a);
  if (lf < 0) return null;
  const cr = buf.indexOf(0x0d);
  if (cr >= 0 && cr < lf - 1) return null; // a lone CR ends the header's line
  if (!isUtf8(buf)) return null;
  const headerText = buf.toString('utf8', bom, lf);
  if (headerText.includes('"')) return null;
  const { header, delimiter } = parseCsv(headerText, 'header');
  return { buf, header, delimiter, dataStart: lf + 1, firstLine: 2, estimatedRows: estimateRows(buf, lf + 1) };
}

/** Rows a file holds from `from` on, for the progress bar: counted in the first part, the rest reckoned. */
function estimateRows(buf: Buffer, from: number): number {
  // Counting every line of a large file held its first rows back by up to 14 ms (SPEC §12's catalogue row).
  const sample = Math.min(buf.length, from + 256 * 1024);
  let rows = 0;
  let last = from - 1;
  for (let i = buf.indexOf(0x0a, from); i >= 0 && i < sample; i = buf.indexOf(0x0a, i + 1)) {
    rows++;
    last = i;
  }
  if (sample === buf.length) return buf[buf.length - 1] === 0x0a ? rows : rows + 1;
  return rows === 0 ? 1 : Math.round((rows * (buf.length - from)) / (last + 1 - from));
}

/**
 * Where the piece starting at `from` ends: just past the first LF at least `bytes` on that has an even
 * count of quotes since `from` (RFC 4180's "" keeps the count even), so a piece ends between rows; a lone
 * CR inside it is read by the CSV parser as the line end it is. The file's end ends the last piece.
 */
function pieceEnd(buf: Buffer, from: number, bytes: number): number {
  let quotes = 0;
  let q = buf.indexOf(0x22, from);
  let at = buf.indexOf(0x0a, Math.min(buf.length - 1, from + bytes));
  while (at >= 0) {
    while (q >= 0 && q < at) {
      quotes++;
      q = buf.indexOf(0x22, q + 1);
    }
    if (quotes % 2 === 0) return at + 1;
    at = buf.indexOf(0x0a, at + 1);
  }
  return buf.length;
}

/** Line ends in buf[from, to): LFs, and CRs not followed by an LF. */
function lineEnds(buf: Buffer, from: number, to: number): number {
  let n = 0;
  for (let i = buf.indexOf(0x0a, from); i >= 0 && i < to; i = buf.indexOf(0x0a, i + 1)) n++;
  for (let i = buf.indexOf(0x0d, from); i >= 0 && i < to; i = buf.indexOf(0x0d, i + 1)) if (buf[i + 1] !== 0x0a) n++;
  return n;
}
