import { quote } from '../vocabulary/errors.ts';
import { lineColumn, parseError, parseErrorAt } from './position.ts';
import { decodeSingleByte, singleByteEncoding } from './single-byte.ts';

/**
 * Bytes to text (SPEC §8): UTF-8, with or without a BOM, unless an XML declaration names ISO-8859-1,
 * Windows-1252 or ISO-8859-15, which are then decoded by table (single-byte.ts), right on every Node. Bytes that are not UTF-8 and not declared are refused, naming
 * where the first one is — never guessed.
 */
export function decodeText(bytes: Uint8Array, fileName: string): string {
  const wide = wideEncoding(bytes);
  if (wide !== null) throw parseError(fileName, `the file is ${wide} text; save it as UTF-8`);
  const hasBom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  const body = hasBom ? bytes.subarray(3) : bytes;

  const declared = hasBom ? null : declaredXmlEncoding(body);
  if (declared !== null) {
    const label = declared.toLowerCase();
    const single = singleByteEncoding(label);
    if (single !== null) return decodeSingleByte(body, single);
    if (label !== 'utf-8' && label !== 'utf8') {
      throw parseError(
        fileName,
        `the file declares the encoding "${quote(declared)}", which brick-work does not read; save it as UTF-8`,
      );
    }
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(body);
  } catch {
    // Not UTF-8: find where, for the message.
  }
  const bad = firstInvalidUtf8(body);
  const before = new TextDecoder('utf-8').decode(body.subarray(0, bad));
  const { line, column } = lineColumn(before, before.length);
  const byte = (body[bad] ?? 0).toString(16).toUpperCase().padStart(2, '0');
  throw parseErrorAt(
    fileName,
    line,
    column,
    `byte 0x${byte} is not UTF-8 text, and the file does not declare another encoding; save it as UTF-8`,
  );
}

/**
 * UTF-16 or UTF-32, told by its byte order mark, or without one by the zero bytes around its first two
 * characters when they are plain ASCII text (as XML 1.0's appendix F tells them): text brick-work does not
 * read, named as what it is. UTF-32's marks are tested first: little-endian UTF-32's begins with UTF-16's.
 */
export function wideEncoding(b: Uint8Array): 'UTF-16' | 'UTF-32' | null {
  const [b0, b1, b2, b3] = [b[0], b[1], b[2], b[3]];
  if (b0 === 0xff && b1 === 0xfe && b2 === 0 && b3 === 0) return 'UTF-32';
  if (b0 === 0 && b1 === 0 && b2 === 0xfe && b3 === 0xff) return 'UTF-32';
  if ((b0 === 0xff && b1 === 0xfe) || (b0 === 0xfe && b1 === 0xff)) return 'UTF-16';
  const text = (c: number | undefined) =>
    c !== undefined && (c === 0x09 || c === 0x0a || c === 0x0d || (c >= 0x20 && c < 0x7f));
  if (text(b0) && b1 === 0 && b2 === 0 && b3 === 0) return 'UTF-32';
  if (b0 === 0 && b1 === 0 && b2 === 0 && text(b3)) return 'UTF-32';
  if (text(b0) && b1 === 0 && text(b2) && b3 === 0) return 'UTF-16';
  if (b0 === 0 && text(b1) && b2 === 0 && text(b3)) return 'UTF-16';
  return null;
}

/** The `encoding` of a leading `<?xml … ?>` declaration, read as ASCII. */
function declaredXmlEncoding(bytes: Uint8Array): string | null {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, 200)).toString('latin1');
  const decl = /^\s*<\?xml\s[^?]*\?>/.exec(head);
  if (!decl) return null;
  const enc = /\sencoding\s*=\s*["']([A-Za-z0-9._-]+)["']/.exec(decl[0]);
  return enc?.[1] ?? null;
}

/** Offset of the first byte that breaks UTF-8, or -1. */
export function firstInvalidUtf8(b: Uint8Array): number {
  const n = b.length;
  let i = 0;
  while (i < n) {
    const c = b[i] as number;
    if (c < 0x80) {
      i += 1;
      continue;
    }
    let need: number;
    let min: number;
    if (c >= 0xc2 && c <= 0xdf) {
      need = 1;
      min = 0x80;
    } else if (c >= 0xe0 && c <= 0xef) {
      need = 2;
      min = 0x800;
    } else if (c >= 0xf0 && c <= 0xf4) {
      need = 3;
      min = 0x10000;
    } else {
      return i;
    }
    let cp = c & (0x3f >> need);
    for (let k = 1; k <= need; k++) {
      const cc = b[i + k];
      if (cc === undefined || (cc & 0xc0) !== 0x80) return i;
      cp = (cp << 6) | (cc & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return i;
    i += need + 1;
  }
  return -1;
}
