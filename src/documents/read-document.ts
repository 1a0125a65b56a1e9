import path from 'node:path';
import { BrickWorkError } from '../errors.ts';
import { parseCsv } from '../text/csv.ts';
import { decodeText } from '../text/decode.ts';
import { lineIndex, parseError } from '../text/position.ts';
import { parseXmlTree } from '../text/xml.ts';
import { readBrickLinkOrders } from './formats/bricklink-order.ts';
import { readBrickLinkXml } from './formats/bricklink-xml.ts';
import { readBrickStore } from './formats/brickstore.ts';
import { readCsvDocument } from './formats/csv.ts';
import type { ParsedDocument } from './model.ts';

/** Files bigger than this are refused before any parsing (SPEC §11). The largest real order is far smaller. */
export const DOCUMENT_SIZE_LIMIT = 20 * 1024 * 1024;

/**
 * Reads an order document of any format brick-work imports, detected from its content (SPEC §8):
 * BrickLink order XML, BrickLink XML, BrickStore, CSV. A BrickLink file with several ORDERs gives
 * several documents. Every refusal is a `parse-error` naming the cause (and the line and column).
 */
export function readDocumentFile(file: { name: string; content: Uint8Array }): ParsedDocument[] {
  const fileName = path.basename(file.name.replace(/\\/g, '/'));
  if (file.content.byteLength > DOCUMENT_SIZE_LIMIT) {
    throw new BrickWorkError(
      'parse-error',
      `${fileName} is ${(file.content.byteLength / 1024 / 1024).toFixed(1)} MB, over the ${DOCUMENT_SIZE_LIMIT / 1024 / 1024} MB limit for a document; it was not read.`,
    );
  }
  if (file.content.byteLength === 0) throw parseError(fileName, 'the file is empty');
  const text = decodeText(file.content, fileName);
  if (text.replace(/^\uFEFF/, '').trimStart().startsWith('<')) {
    const root = parseXmlTree(text, fileName);
    const lineOf = lineIndex(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
    switch (root.name) {
      case 'ORDERS':
      case 'ORDER':
        return readBrickLinkOrders(root, fileName, lineOf);
      case 'INVENTORY':
        return [readBrickLinkXml(root, fileName, lineOf)];
      case 'BrickStoreXML':
        return [readBrickStore(root, fileName, lineOf)];
      default:
        throw new BrickWorkError(
          'parse-error',
          `${fileName} is XML, but not a document brick-work imports (its root is <${root.name}>; it reads BrickLink ORDERS/ORDER and INVENTORY, and BrickStoreXML).`,
        );
    }
  }
  const table = parseCsv(text, fileName);
  if (table.rows.length === 0) throw parseError(fileName, 'the file has a header row but no lines');
  return [readCsvDocument(table, fileName)];
}
