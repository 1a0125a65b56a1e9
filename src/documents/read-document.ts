import { DOCUMENT_LINE_LIMIT, DOCUMENT_SIZE_LIMIT, tooBig } from '../platform/file-limits.ts';
import path from 'node:path';
import { BrickWorkError, quote } from '../vocabulary/errors.ts';
import { parseCsv } from '../text/csv.ts';
import { JsonReader, type JsonHandler } from '../text/json-stream.ts';
import { decodeText } from '../text/decode.ts';
import { lineColumn, lineIndex, parseError, parseErrorAt } from '../text/position.ts';
import { parseXmlTree, XML_DEPTH_LIMIT } from '../text/xml.ts';
import { isBrickLinkOrdersCsv, readBrickLinkOrdersCsv } from './formats/bricklink-orders-csv.ts';
import { readBrickLinkOrders } from './formats/bricklink-order.ts';
import { readBrickLinkXml } from './formats/bricklink-xml.ts';
import { readBrickStore } from './formats/brickstore.ts';
import { readCsvDocument } from './formats/csv.ts';
import { readLdrawModel } from './formats/ldraw.ts';
import { readStudioModel } from './formats/studio.ts';
import type { ColourNumbering, KeptColumn, ParsedDocument } from './model.ts';

export { DOCUMENT_LINE_LIMIT, DOCUMENT_SIZE_LIMIT };

/** C0 control characters other than tab, LF and CR, and DEL: no document field may hold one (SPEC §11). */
// eslint-disable-next-line no-control-regex -- control characters are exactly what this looks for
const CONTROL_CHARACTER = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;

/** The refusal of a document with too many lines: `count` is the line the reader stopped at, `line` its text line. */
function tooManyLines(fileName: string, count: number, line: number): BrickWorkError {
  const limit = DOCUMENT_LINE_LIMIT.toLocaleString('en-US');
  return new BrickWorkError(
    'parse-error',
    `${fileName} has more than ${limit} lines (the reader stopped at line ${count.toLocaleString('en-US')}, text line ${line.toLocaleString('en-US')}); ` +
      `brick-work imports at most ${limit} lines per document — split the file.`,
  );
}

/** Files staff pick by mistake, known by their first bytes: named for what they are, not as bad text. */
const NOT_DOCUMENTS: readonly { readonly magic: readonly number[]; readonly what: string; readonly hint?: string }[] = [
  { magic: [0x89, 0x50, 0x4e, 0x47], what: 'a PNG image' },
  { magic: [0xff, 0xd8, 0xff], what: 'a JPEG image' },
  { magic: [0x47, 0x49, 0x46, 0x38], what: 'a GIF image' },
  {
    magic: [0x25, 0x50, 0x44, 0x46],
    what: 'a PDF document',
    hint: 'export the order from where it came as XML or CSV',
  },
  {
    magic: [0x50, 0x4b, 0x03, 0x04],
    what: 'a ZIP archive (an Excel or LibreOffice sheet is one)',
    hint: 'save the sheet as CSV, or unpack the archive',
  },
  { magic: [0x52, 0x61, 0x72, 0x21], what: 'a RAR archive', hint: 'unpack it first' },
  { magic: [0x37, 0x7a, 0xbc, 0xaf], what: 'a 7-Zip archive', hint: 'unpack it first' },
  { magic: [0x1f, 0x8b], what: 'a gzip-compressed file', hint: 'unpack it first' },
  { magic: [0xd0, 0xcf, 0x11, 0xe0], what: 'an old Excel or Word file', hint: 'save the sheet as CSV' },
];

const WHAT_IT_READS =
  'brick-work imports BrickLink orders (XML or CSV), BrickLink XML, BrickStore and BrickStock files (.bsx), CSV part lists, and LDraw (.ldr, .mpd) and BrickLink Studio (.io) models.';

function notAList(fileName: string, what: string, hint: string | undefined): BrickWorkError {
  return new BrickWorkError(
    'parse-error',
    `This is ${what}, not an order document (${fileName})${hint ? `: ${hint}` : ''}. ${WHAT_IT_READS}`,
  );
}

/** The name of the first entry of a ZIP file (its first local header's), or null. */
function firstZipEntry(content: Uint8Array): string | null {
  if (content.byteLength < 30) return null;
  const length = (content[26] ?? 0) | ((content[27] ?? 0) << 8);
  if (length === 0 || 30 + length > content.byteLength) return null;
  return new TextDecoder('utf-8', { fatal: false }).decode(content.subarray(30, 30 + length));
}

/** A BrickLink Studio model: a ZIP named `.io`, or whose entries are Studio's (model.ldr, .info). */
function isStudioModel(content: Uint8Array, fileName: string): boolean {
  const entry = firstZipEntry(content);
  return /\.io$/i.test(fileName) || (entry !== null && /^(model\d*\.ldr|\.info|thumbnail\.png)$/i.test(entry));
}

function notADocument(content: Uint8Array, fileName: string): BrickWorkError | null {
  const kind = NOT_DOCUMENTS.find((k) => k.magic.every((b, i) => content[i] === b));
  if (kind === undefined) return null;
  return notAList(fileName, kind.what, kind.hint);
}

/** An LDraw command line: a meta line (`0 Name: …`, `0 FILE …`) or a part reference (`1 colour x y z a b c d e f g h i part.dat`). */
const LDRAW_LINE =
  /^\s*(0\s+(FILE|Name:|Author:|!LDRAW_ORG|!LICENSE|BFC|STEP|NOFILE)(\s|$)|1\s+-?\d+(\s+-?[\d.eE+-]+){12}\s+\S+\.(dat|ldr))/i;

/** An LDraw model (`.ldr`, `.mpd`, `.dat`), by its lines: read as a parts list (SPEC §8). */
function isLdrawModel(text: string, fileName: string): boolean {
  const head = text.slice(0, 64 * 1024);
  const ldrawLines = head.split(/\r\n?|\n/, 20).filter((l) => LDRAW_LINE.test(l)).length;
  return ldrawLines >= 2 || (ldrawLines >= 1 && /\.(ldr|mpd|dat)$/i.test(fileName));
}

/**
 * Text files that are not lists, named for what they are (SPEC §8): a JSON file, and a file named
 * `.bsx`/`.xml` that is not XML. Null when the text may be a list.
 */
function notAListText(text: string, fileName: string): BrickWorkError | null {
  const head = text.slice(0, 64 * 1024);
  const start = head.trimStart();
  if (/\.json$/i.test(fileName) || ((start.startsWith('{') || start.startsWith('[')) && isJson(text))) {
    return notAList(fileName, 'a JSON file', 'export the list as CSV or as BrickLink XML');
  }
  const extension = /\.(bsx|xml)$/i.exec(fileName)?.[1];
  if (extension !== undefined && !start.startsWith('<')) {
    const first = start.split(/\r\n?|\n/, 1)[0] ?? '';
    return new BrickWorkError(
      'parse-error',
      `${fileName} is named .${extension.toLowerCase()} but is not XML (it begins "${quote(first)}"): ` +
        `a ${extension.toLowerCase() === 'bsx' ? 'BrickStore file' : 'BrickLink XML file'} begins with "<". Is it the right file? ${WHAT_IT_READS}`,
    );
  }
  return null;
}

/** Nested deeper than this, text that reads as JSON so far is JSON: no list nests at all. */
const JSON_DEPTH = 64;
class NestedDeep extends Error {}

/**
 * Whether the text is JSON: read a token at a time, nothing built (issue 62: `JSON.parse` built what a
 * 20 MB file of brackets nests, a gigabyte of arrays).
 */
function isJson(text: string): boolean {
  let depth = 0;
  const deeper = () => {
    if (++depth > JSON_DEPTH) throw new NestedDeep();
  };
  const checked: JsonHandler = {
    openObject: deeper,
    openArray: deeper,
    close: () => void depth--,
    key: () => undefined,
    scalar: () => undefined,
  };
  const reader = new JsonReader('', checked, { maxDepth: JSON_DEPTH + 1, maxToken: text.length });
  try {
    reader.write(text);
    reader.end();
    return true;
  } catch (e) {
    if (e instanceof NestedDeep) return true;
    if (e instanceof BrickWorkError) return false;
    throw e;
  }
}

/**
 * Reads an order document of any format brick-work imports, detected from its content (SPEC §8):
 * BrickLink order XML, BrickLink XML, BrickStore (and BrickStock), CSV. A BrickLink file with several ORDERs gives
 * several documents. Every refusal is a `parse-error` naming the cause (and the line and column).
 */
export function readDocumentFile(
  file: { name: string; content: Uint8Array },
  options: {
    readonly onProgress?: (done: number, total: number) => void;
    /** Staff's choice of the numbering of a CSV list's colour numbers (SPEC §8). */
    readonly colourNumbering?: ColourNumbering | null;
    /** A column read beside each line as given (SPEC §16: a stock lot's location), where the format has columns. */
    readonly keep?: KeptColumn | null;
  } = {},
): ParsedDocument[] {
  const fileName = path.basename(file.name.replace(/\\/g, '/'));
  if (file.content.byteLength > DOCUMENT_SIZE_LIMIT) throw tooBig(fileName, 'document', file.content.byteLength);
  if (file.content.byteLength === 0) throw parseError(fileName, 'the file is empty');
  // A BrickLink Studio model: a ZIP, read as the LDraw model it holds.
  if (file.content[0] === 0x50 && file.content[1] === 0x4b && isStudioModel(file.content, fileName))
    return [readStudioModel(file.content, fileName)];
  const wrongKind = notADocument(file.content, fileName);
  if (wrongKind !== null) throw wrongKind;
  const decoded = decodeText(file.content, fileName);
  // Without its BOM, as both parsers see it, so that offsets give the same lines and columns.
  const text = decoded.charCodeAt(0) === 0xfeff ? decoded.slice(1) : decoded;
  // Looked for in the whole text: in CSV every character is in some field, and XML forbids them anywhere.
  const control = CONTROL_CHARACTER.exec(text);
  if (control !== null) {
    const { line, column } = lineColumn(text, control.index);
    const code = control[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0');
    throw parseErrorAt(
      fileName,
      line,
      column,
      `a control character (U+${code}) is in the text; a document may not hold one (is the file damaged?)`,
    );
  }
  if (isLdrawModel(text, fileName)) return [readLdrawModel(text, fileName, 'ldraw-model', file.content)];
  const notList = notAListText(text, fileName);
  if (notList !== null) throw notList;
  // How far into the text the reader is, every thousand lines: a big file takes seconds (SPEC §11).
  const progress = options.onProgress;
  const tell =
    progress === undefined
      ? undefined
      : (count: number, offset: number) => {
          if (count % 1000 === 0) progress(offset, text.length);
        };
  if (text.trimStart().startsWith('<')) {
    const root = parseXmlTree(text, fileName, {
      refuseControlReferences: true,
      maxDepth: XML_DEPTH_LIMIT,
      sayDamaged: true,
      childLimit: {
        names: ['ITEM', 'Item'],
        max: DOCUMENT_LINE_LIMIT,
        refuse: (count, offset) => tooManyLines(fileName, count, lineColumn(text, offset).line),
        onChild: tell,
      },
    });
    progress?.(text.length, text.length);
    const lineOf = lineIndex(text);
    switch (root.name) {
      case 'ORDERS':
      case 'ORDER':
        return readBrickLinkOrders(root, fileName, lineOf);
      case 'INVENTORY':
        return [readBrickLinkXml(root, fileName, lineOf, options.keep ?? null)];
      case 'BrickStoreXML':
      case 'BrickStockXML':
        return [readBrickStore(root, fileName, lineOf, options.keep ?? null)];
      default:
        throw new BrickWorkError(
          'parse-error',
          `${fileName} is XML, but not a document brick-work imports (its root is <${quote(root.name)}>; it reads BrickLink ORDERS/ORDER and INVENTORY, BrickStoreXML and BrickStockXML).`,
        );
    }
  }
  const table = parseCsv(text, fileName, {
    rowLimit: { max: DOCUMENT_LINE_LIMIT, refuse: (count, line) => tooManyLines(fileName, count, line) },
    onRow: tell,
  });
  progress?.(text.length, text.length);
  if (isBrickLinkOrdersCsv(table.header)) return readBrickLinkOrdersCsv(table, fileName);
  return [
    readCsvDocument(table, fileName, { colourNumbering: options.colourNumbering ?? null, keep: options.keep ?? null }),
  ];
}
