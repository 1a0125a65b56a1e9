import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeEntities } from '../../src/text/xml.ts';

/**
 * XML's references decoded without a regular expression's callback a reference (issue 62: a field of
 * millions of them took hundreds of MB): the same text as before, whatever the text.
 */

const PREDEFINED: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** The reader's rule as it was written before, as a regular expression. */
function reference(text: string, onControl?: (index: number, ref: string) => void): string {
  return text.replace(/&(#x[0-9A-Fa-f]{1,6}|#[0-9]{1,7}|[A-Za-z]{2,8});/g, (whole, ref: string, index: number) => {
    if (ref.startsWith('#')) {
      const cp = ref[1] === 'x' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      const control = (cp < 0x20 && cp !== 0x09 && cp !== 0x0a && cp !== 0x0d) || cp === 0x7f;
      if (onControl !== undefined && control) onControl(index, whole);
      return cp > 0 && cp <= 0x10ffff && !(cp >= 0xd800 && cp <= 0xdfff) ? String.fromCodePoint(cp) : whole;
    }
    return Object.hasOwn(PREDEFINED, ref) ? (PREDEFINED[ref] as string) : whole;
  });
}

describe("XML's references (issue 62)", () => {
  it('decode as the regular expression did, control references told at the same places', () => {
    const pieces = [
      '&',
      '#',
      'x',
      'X',
      ';',
      '0',
      '1',
      '9',
      'a',
      'F',
      'amp',
      'lt',
      'quot',
      '1F9F1',
      'FEFF',
      '10FFFF',
      '110000',
      'D800',
      '1234567',
      'é',
      '𝄞',
      ' ',
    ];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 40 }), (parts) => {
        const text = parts.join('');
        const told: [number, string][] = [];
        const before: [number, string][] = [];
        expect(decodeEntities(text, (i, r) => told.push([i, r]))).toBe(reference(text, (i, r) => before.push([i, r])));
        expect(told).toEqual(before);
      }),
      { numRuns: 2000 },
    );
    expect(decodeEntities('a &amp;&lt;b&gt; &#x1F9F1;&#65;&#x41; &nbsp; & &valueOf; &#0;')).toBe(
      'a &<b> 🧱AA &nbsp; & &valueOf; &#0;',
    );
    expect(decodeEntities('&#xFEFF;a')).toBe('\uFEFFa');
  });

  it('millions of references make one string of what they stand for', () => {
    const text = '&#x1F9F1;'.repeat(1_000_000);
    expect(decodeEntities(text)).toBe('🧱'.repeat(1_000_000));
  });
});
