import { CATALOGUE_FILE_LIMIT, tooBig } from '../file-limits.ts';
import zlib from 'node:zlib';
import { BrickWorkError, quote } from '../errors.ts';
import { parseCsv, type CsvTable } from '../text/csv.ts';
import { decodeText, wideEncoding } from '../text/decode.ts';
import { parseError, parseErrorAt } from '../text/position.ts';
import { isBrickLinkItemsHeader, readBrickLinkTab } from './formats/bricklink-tab.ts';
import { readBrickLinkXml } from './formats/bricklink-xml.ts';
import { readRebrickable } from './formats/rebrickable-csv.ts';
import {
  readBrickLinkCodes,
  readPartCrossrefs,
  readRebrickableColourTable,
  readRebrickableTranslations,
} from './formats/translations.ts';
import type { ItemType } from '../item-types.ts';
import type { CatalogueFile } from './records.ts';

/** A file as the renderer or the CLI hands it over: its name and its bytes, never a path (SPEC §1). */
export interface NamedContent {
  readonly name: string;
  readonly content: Uint8Array;
}

export { CATALOGUE_FILE_LIMIT };

/** A catalogue file's bytes, gunzipped when they are gzip data. */
export function unzipped(file: NamedContent): Uint8Array {
  const { name } = file;
  if (file.content.byteLength > CATALOGUE_FILE_LIMIT) throw tooBig(name, 'catalogue', file.content.byteLength);
  const bytes = file.content;
  if (bytes[0] !== 0x1f || bytes[1] !== 0x8b) return withoutNul(name, bytes);
  let plain: Uint8Array;
  try {
    plain = zlib.gunzipSync(bytes, { maxOutputLength: CATALOGUE_FILE_LIMIT });
  } catch (e) {
    throw parseError(name, `the gzip data can't be read (${quote((e as Error).message)})`);
  }
  return withoutNul(name, plain);
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
 * its first line only (its first 64 KB, unzipped as far as they go), before a load starts.
 */
export function isBrickLinkItems(file: NamedContent): boolean {
  const head = file.content.subarray(0, 64 * 1024);
  let bytes: Uint8Array = head;
  if (head[0] === 0x1f && head[1] === 0x8b) {
    try {
      bytes = zlib.gunzipSync(head, { finishFlush: zlib.constants.Z_SYNC_FLUSH });
    } catch {
      return false;
    }
  }
  const text = new TextDecoder().decode(bytes).replace(/^\uFEFF/, '');
  const first = text.split(/\r?\n/).find((l) => l.trim() !== '');
  if (first === undefined || !first.includes('\t')) return false;
  return isBrickLinkItemsHeader(first.split('\t').map((c) => c.trim().replace(/^"|"$/g, '')));
}

/** Reads a catalogue file of any format brick-work loads, plain or gzipped, detected from its content. */
export function readCatalogueFile(file: NamedContent, options: { type: ItemType | null }): CatalogueFile {
  const { name } = file;
  const text = decodeText(unzipped(file), name);
  const start = text.trimStart();
  if (start.startsWith('<')) return readBrickLinkXml(name, text);
  if (start.startsWith('{') || start.startsWith('[')) {
    const colours = readRebrickableColourTable(name, text);
    if (colours !== null) return colours;
  }
  const crossrefs = readPartCrossrefs(name, text);
  if (crossrefs !== null) return crossrefs;
  return readCatalogueTable(name, parseCsv(text, name), options.type);
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
