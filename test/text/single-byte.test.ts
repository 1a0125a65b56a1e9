import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { decodeText } from '../../src/text/decode.ts';
import { decodeSingleByte, singleByteEncoding } from '../../src/text/single-byte.ts';

// The published mappings, as iconv-lite carries them (generated from Unicode's and WHATWG's tables): an
// independent reference for all 256 bytes of each encoding brick-work reads.
const require = createRequire(import.meta.url);
const iconv = require('iconv-lite') as { decode(b: Buffer, encoding: string): string };
const ALL_BYTES = Uint8Array.from({ length: 256 }, (_, i) => i);

describe('legacy encodings decode right on every Node (issue 45, point 1)', () => {
  it('Windows-1252: all 256 bytes as its published mapping, whatever this Node’s TextDecoder does', () => {
    const ours = [...decodeSingleByte(ALL_BYTES, 'windows-1252')];
    const published = [...iconv.decode(Buffer.from(ALL_BYTES), 'windows-1252')];
    expect(ours).toHaveLength(256);
    for (let b = 0; b < 256; b++) expect(ours[b], `byte 0x${b.toString(16)}`).toBe(published[b]);
    expect(decodeSingleByte(Uint8Array.from([0x96, 0x80, 0x99, 0x93, 0x94]), 'windows-1252')).toBe('–€™“”');
  });

  it('ISO-8859-15: all 256 bytes as its published mapping (the euro at 0xA4, Š š Ž ž Œ œ Ÿ)', () => {
    const ours = [...decodeSingleByte(ALL_BYTES, 'iso-8859-15')];
    const published = [...iconv.decode(Buffer.from(ALL_BYTES), 'iso-8859-15')];
    for (let b = 0; b < 256; b++) expect(ours[b], `byte 0x${b.toString(16)}`).toBe(published[b]);
  });

  it('ISO-8859-1 is read as Windows-1252, as browsers read it (WHATWG): the same letters from 0xA0, and 0x80–0x9F printable', () => {
    expect(singleByteEncoding('ISO-8859-1')).toBe('windows-1252');
    expect(singleByteEncoding('latin1')).toBe('windows-1252');
    const latin1 = [...iconv.decode(Buffer.from(ALL_BYTES), 'iso-8859-1')];
    const ours = [...decodeSingleByte(ALL_BYTES, 'windows-1252')];
    for (let b = 0; b < 256; b++) if (b < 0x80 || b >= 0xa0) expect(ours[b]).toBe(latin1[b]);
    expect(singleByteEncoding('latin9')).toBe('iso-8859-15');
    expect(singleByteEncoding('koi8-r')).toBeNull();
  });

  it('a declared document is decoded by its declaration; an encoding it does not read is refused in words', () => {
    const declared = (encoding: string, body: number[]) =>
      Buffer.concat([
        Buffer.from(`<?xml version="1.0" encoding="${encoding}"?><a>`),
        Buffer.from(body),
        Buffer.from('</a>'),
      ]);
    expect(decodeText(declared('windows-1252', [0x80, 0x20, 0x99]), 'a.xml')).toContain('<a>€ ™</a>');
    expect(decodeText(declared('ISO-8859-15', [0xa4]), 'a.xml')).toContain('<a>€</a>');
    expect(decodeText(declared('ISO-8859-1', [0xe9]), 'a.xml')).toContain('<a>é</a>');
    expect(() => decodeText(declared('koi8-r', [0xe9]), 'a.xml')).toThrow(
      /declares the encoding "koi8-r", which brick-work does not read/,
    );
  });
});
