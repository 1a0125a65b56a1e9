import path from 'node:path';
import { BrickWorkError, quote } from '../errors.ts';
import { parseCsv } from '../text/csv.ts';
import { decodeText } from '../text/decode.ts';
import { lineColumn, lineIndex, parseError, parseErrorAt } from '../text/position.ts';
import { parseXmlTree } from '../text/xml.ts';
import { readBrickLinkOrders } from './formats/bricklink-order.ts';
import { readBrickLinkXml } from './formats/bricklink-xml.ts';
import { readBrickStore } from './formats/brickstore.ts';
import { readCsvDocument } from './formats/csv.ts';
import type { ParsedDocument } from './model.ts';

/** Files bigger than this are refused before any parsing (SPEC §11). The largest real order is far smaller. */
export const DOCUMENT_SIZE_LIMIT = 20 * 1024 * 1024;

/**
 * The most lines (CSV rows, XML items) one document may have (SPEC §11). Twenty megabytes of `3001,1`
 * are 2.5 million lines, which would take gigabytes to hold; the readers stop as soon as they pass this.
 */
export const DOCUMENT_LINE_LIMIT = 200_000;

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
  { magic: [0x1f, 0x8b], what: 'a gzip-compressed file', hint: 'unpack it first' },
  { magic: [0xd0, 0xcf, 0x11, 0xe0], what: 'an old Excel or Word file', hint: 'save the sheet as CSV' },
];

function notADocument(content: Uint8Array, fileName: string): BrickWorkError | null {
  const kind = NOT_DOCUMENTS.find((k) => k.magic.every((b, i) => content[i] === b));
  if (kind === undefined) return null;
  return new BrickWorkError(
    'parse-error',
    `This is ${kind.what}, not an order document (${fileName})${kind.hint ? `: ${kind.hint}` : ''}. ` +
      'brick-work imports BrickLink orders (XML), BrickLink XML, BrickStore and BrickStock files (.bsx) and CSV part lists.',
  );
}

/**
 * Reads an order document of any format brick-work imports, detected from its content (SPEC §8):
 * BrickLink order XML, BrickLink XML, BrickStore (and BrickStock), CSV. A BrickLink file with several ORDERs gives
 * several documents. Every refusal is a `parse-error` naming the cause (and the line and column).
 */
export function readDocumentFile(
  file: { name: string; content: Uint8Array },
  options: { readonly onProgress?: (done: number, total: number) => void } = {},
): ParsedDocument[] {
  const fileName = path.basename(file.name.replace(/\\/g, '/'));
  if (file.content.byteLength > DOCUMENT_SIZE_LIMIT) {
    throw new BrickWorkError(
      'parse-error',
      `${fileName} is ${(file.content.byteLength / 1024 / 1024).toFixed(1)} MB, over the ${DOCUMENT_SIZE_LIMIT / 1024 / 1024} MB limit for a document; it was not read.`,
    );
  }
  if (file.content.byteLength === 0) throw parseError(fileName, 'the file is empty');
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
        return [readBrickLinkXml(root, fileName, lineOf)];
      case 'BrickStoreXML':
      case 'BrickStockXML':
        return [readBrickStore(root, fileName, lineOf)];
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
  return [readCsvDocument(table, fileName)];
}
