/**
 * The legacy single-byte encodings a declared XML document may use (SPEC §8), decoded by table, the same
 * on every Node: Node's own `TextDecoder('windows-1252')` decodes 0x80–0x9F as Latin-1 on some supported
 * versions (nodejs/node#60888), turning “quotes”, – and € into invisible control characters.
 *
 * The tables are the published mappings (Unicode's CP1252.TXT and 8859-15.TXT): bytes below 0x80 are
 * ASCII. A document labelled ISO-8859-1 (or Latin-1, US-ASCII) is decoded as Windows-1252, as browsers do
 * (the WHATWG Encoding Standard): such files almost always come from Windows, where 0x80–0x9F are
 * printable — in strict ISO-8859-1 they are control characters no name holds.
 */

/**
 * Windows-1252's 0x80–0x9F (Unicode's CP1252.TXT); 0xA0–0xFF are U+00A0–U+00FF. The five bytes it leaves
 * undefined become U+FFFD, which shows — never an invisible control character in a part's name.
 */
const WINDOWS_1252_HIGH =
  '\u20ac\ufffd\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\ufffd\u017d\ufffd' +
  '\ufffd\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\ufffd\u017e\u0178';

/** ISO-8859-15 differs from Latin-1 in eight places (the euro, Š š Ž ž Œ œ Ÿ); 0x80–0x9F are C1 controls. */
const ISO_8859_15_CHANGES: Readonly<Record<number, string>> = {
  0xa4: '\u20ac',
  0xa6: '\u0160',
  0xa8: '\u0161',
  0xb4: '\u017d',
  0xb8: '\u017e',
  0xbc: '\u0152',
  0xbd: '\u0153',
  0xbe: '\u0178',
};

export type SingleByteEncoding = 'windows-1252' | 'iso-8859-15';

function table(encoding: SingleByteEncoding): readonly string[] {
  return Array.from({ length: 256 }, (_, b) => {
    if (encoding === 'windows-1252' && b >= 0x80 && b <= 0x9f) return WINDOWS_1252_HIGH[b - 0x80] ?? '';
    return ISO_8859_15_CHANGES[b] !== undefined && encoding === 'iso-8859-15'
      ? ISO_8859_15_CHANGES[b]
      : String.fromCharCode(b);
  });
}

const TABLES: Record<SingleByteEncoding, readonly string[]> = {
  'windows-1252': table('windows-1252'),
  'iso-8859-15': table('iso-8859-15'),
};

/** The WHATWG labels of the encodings read, each to the table that decodes it. */
const LABELS: Readonly<Record<string, SingleByteEncoding>> = Object.fromEntries([
  ...[
    'windows-1252',
    'cp1252',
    'x-cp1252',
    'iso-8859-1',
    'iso8859-1',
    'iso_8859-1',
    'iso88591',
    'latin1',
    'latin-1',
    'l1',
    'cp819',
    'ibm819',
    'us-ascii',
    'ascii',
  ].map((l) => [l, 'windows-1252' as const]),
  ...['iso-8859-15', 'iso8859-15', 'iso_8859-15', 'iso885915', 'latin9', 'latin-9', 'l9', 'csisolatin9'].map((l) => [
    l,
    'iso-8859-15' as const,
  ]),
]);

/** The single-byte encoding a label names, or null when it names none brick-work reads this way. */
export function singleByteEncoding(label: string): SingleByteEncoding | null {
  return LABELS[label.trim().toLowerCase()] ?? null;
}

/** Decodes `bytes` in `encoding`, byte by byte through its table. */
export function decodeSingleByte(bytes: Uint8Array, encoding: SingleByteEncoding): string {
  const t = TABLES[encoding];
  const parts: string[] = [];
  // In slices, so a large file is joined without a string per byte held at once.
  for (let start = 0; start < bytes.length; start += 65_536) {
    let s = '';
    const end = Math.min(bytes.length, start + 65_536);
    for (let i = start; i < end; i++) s += t[bytes[i] as number];
    parts.push(s);
  }
  return parts.join('');
}
