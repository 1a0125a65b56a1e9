import { CATALOGUE_FILE_LIMIT, tooBig, tooBigUnpacked } from '../platform/file-limits.ts';
import zlib from 'node:zlib';
import { BrickWorkError, quote } from '../vocabulary/errors.ts';
import { parseCsv, type CsvTable } from '../text/csv.ts';
import { decodeText, firstInvalidUtf8, wideEncoding } from '../text/decode.ts';
import { parseError, parseErrorAt } from '../text/position.ts';
import { isBrickLinkItemsHeader, readBrickLinkTab } from './formats/bricklink-tab.ts';
import { readBrickLinkXml } from './formats/bricklink-xml.ts';
import { readRebrickable } from './formats/rebrickable-csv.ts';
import {
  colourTableReader,
  readBrickLinkCodes,
  readPartCrossrefs,
  readRebrickableColourTable,
  readRebrickableTranslations,
} from './formats/translations.ts';
import type { ItemType } from '../vocabulary/item-types.ts';
import type { CatalogueFile } from './records.ts';
import { isGzip, plainBytes, plainPieces } from './unpack.ts';

/** A file as the renderer or the CLI hands it over: its name and its bytes, never a path (SPEC §1). */
export interface NamedContent {
  readonly name: string;
  readonly content: Uint8Array;
}

export { CATALOGUE_FILE_LIMIT };

/**
 * A catalogue file's bytes, gunzipped when they are gzip data, all at once: for a test or a bench that
 * reads a file on the spot. The app and the CLI read with `readCatalogue` (a bomb never held whole).
 */
export function unzipped(file: NamedContent): Uint8Array {
  const { name } = file;
  if (file.content.byteLength > CATALOGUE_FILE_LIMIT) throw tooBig(name, 'catalogue', file.content.byteLength);
  const bytes = file.content;
  if (!isGzip(bytes)) return withoutNul(name, bytes);
  let plain: Uint8Array;
  try {
    plain = zlib.gunzipSync(bytes, { maxOutputLength: CATALOGUE_FILE_LIMIT });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') throw tooBigUnpacked(name, 'catalogue');
    throw parseError(name, `the gzip data can't be read (${quote((e as Error).message)})`);
  }
  return withoutNul(name, plain);
}

/** A catalogue file's text bytes, unpacked when gzipped (`plainBytes`: refused at the cap, never held past it). */
export async function unpacked(file: NamedContent): Promise<Uint8Array> {
  return withoutNul(file.name, await plainBytes(file));
}

/**
 * A catalogue file is text, and text holds no NUL: one says the file is damaged (and a server's text
 * can't store it). UTF-16 and UTF-32, which are full of them, are left to `decodeText` to name.
 */
function withoutNul(name: string, bytes: Uint8Array): Uint8Array {
  const at = bytes.indexOf(0);
  if (at < 0 || wideEncoding(bytes) !== null) return bytes;
  const lineStart = bytes.lastIndexOf(0x0a, at) + 1;
  let line = 1;
  for (let i = bytes.indexOf(0x0a); i >= 0 && i < at; i = bytes.indexOf(0x0a, i + 1)) line++;
  const column = new TextDecoder().decode(bytes.subarray(lineStart, at)).length + 1;
  throw parseErrorAt(
    name,
    line,
    column,
    'a NUL byte is in the text, which a catalogue file never holds (is the file damaged?)',
  );
}

/**
 * Whether a file is one of BrickLink's tab-delimited items downloads, which name no item type: read from
 * its first line only, before a load starts — in its first 64 KB (of a gzipped one, in what its first
 * 4 KB unpack to: a bomb's unpack to 4 MB at most), never split further (issue 62: a gzipped file of
 * blank lines was split into millions of them).
 */
export function isBrickLinkItems(file: NamedContent): boolean {
  let bytes: Uint8Array = file.content;
  if (isGzip(bytes)) {
    try {
      bytes = zlib.gunzipSync(bytes.subarray(0, 4 * 1024), { finishFlush: zlib.constants.Z_SYNC_FLUSH });
    } catch {
      return false;
    }
  }
  const text = new TextDecoder().decode(bytes.subarray(0, 64 * 1024)).replace(/^\uFEFF/, '');
  const first = text.split(/\r?\n/).find((l) => l.trim() !== '');
  if (first === undefined || !first.includes('\t')) return false;
  return isBrickLinkItemsHeader(first.split('\t').map((c) => c.trim().replace(/^"|"$/g, '')));
}

/**
 * Reads a catalogue file of any format brick-work loads, plain or gzipped, detected from its content, as
 * the app and the CLI do: JSON as it unpacks, a piece at a time (issue 62); any other format unpacked
 * whole first.
 */
export async function readCatalogue(file: NamedContent, options: { type: ItemType | null }): Promise<CatalogueFile> {
  if (await isJsonFile(file)) return readJsonCatalogue(file);
  return readPlainCatalogue(file.name, await unpacked(file), options);
}

/** The same, at once: a gzipped file is unpacked whole first (tests and benches). */
export function readCatalogueFile(file: NamedContent, options: { type: ItemType | null }): CatalogueFile {
  return readPlainCatalogue(file.name, unzipped(file), options);
}

/** A catalogue file's text bytes (unpacked, without NUL) read as whichever format their content says. */
export function readPlainCatalogue(name: string, plain: Uint8Array, options: { type: ItemType | null }): CatalogueFile {
  const text = decodeText(plain, name);
  const start = text.trimStart();
  if (start.startsWith('<')) return readBrickLinkXml(name, text);
  if (start.startsWith('{') || start.startsWith('[')) return readRebrickableColourTable(name, text);
  const crossrefs = readPartCrossrefs(name, text);
  if (crossrefs !== null) return crossrefs;
  return readCatalogueTable(name, parseCsv(text, name), options.type);
}

/** Whether a file's text starts as JSON does ("{" or "[", after a BOM and white space): only its first piece is unpacked. */
export async function isJsonFile(file: NamedContent): Promise<boolean> {
  for await (const piece of plainPieces(file)) {
    // UTF-16 and UTF-32 are left to `decodeText` to name.
    if (wideEncoding(piece) !== null) return false;
    let at = piece[0] === 0xef && piece[1] === 0xbb && piece[2] === 0xbf ? 3 : 0;
    while (at < piece.length && [0x20, 0x09, 0x0a, 0x0d].includes(piece[at] as number)) at++;
    return piece[at] === 0x7b || piece[at] === 0x5b;
  }
  return false;
}

/**
 * A JSON catalogue file (Rebrickable's colour list) read as its text unpacks, a piece at a time: it is
 * never held whole, as text or as values, and what it nests is refused past a depth (issue 62).
 */
export async function readJsonCatalogue(file: NamedContent): Promise<CatalogueFile> {
  const { name } = file;
  const reader = colourTableReader(name);
  // JSON is UTF-8 (RFC 8259); a BOM is dropped.
  const decoder = new TextDecoder('utf-8', { fatal: true });
  for await (const piece of plainPieces(file)) {
    let text: string;
    try {
      text = decoder.decode(piece, { stream: true });
    } catch {
      const bad = Math.max(0, firstInvalidUtf8(piece));
      // The text before the bad byte, read first, puts the reader where the byte is.
      reader.write(new TextDecoder('utf-8').decode(piece.subarray(0, bad)));
      const { line, column } = reader.where();
      const byte = (piece[bad] ?? 0).toString(16).toUpperCase().padStart(2, '0');
      throw parseErrorAt(name, line, column, `byte 0x${byte} is not UTF-8 text, which JSON is; save it as UTF-8`);
    }
    reader.write(text);
  }
  try {
    reader.write(decoder.decode());
  } catch {
    const { line, column } = reader.where();
    throw parseErrorAt(name, line, column, 'the file ends inside a UTF-8 character: it is cut short');
  }
  return reader.end();
}

/** A delimited catalogue file's rows, as whichever format its header says (or a part of them: `read-in-two.ts`). */
export function readCatalogueTable(name: string, table: CsvTable, type: ItemType | null): CatalogueFile {
  const parsed =
    readBrickLinkCodes(name, table) ??
    readRebrickableTranslations(name, table) ??
    readRebrickable(name, table) ??
    readBrickLinkTab(name, table, type);
  if (parsed === null) {
    throw new BrickWorkError(
      'parse-error',
      `${name} is not a catalogue file brick-work knows (its first row is "${quote(table.header.slice(0, 5).join(', '))}"). ` +
        "It loads BrickLink's downloads (items, colours, categories, codes) and Rebrickable's (parts, sets, categories, elements, relationships, colour list, cross-references).",
    );
  }
  return parsed;
}
