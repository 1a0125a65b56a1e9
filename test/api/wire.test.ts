import { describe, expect, it } from 'vitest';
import { decodeWire, encodeWire } from '../../src/api/wire.ts';

describe("the browser host's wire (JSON, bytes as base64)", () => {
  it('writes bytes wherever they are as {"$bytes": …}, and reads them back as bytes', () => {
    const value = { a: [1, { file: { name: 'x.csv', content: new Uint8Array([104, 105]) } }], b: 'text' };
    const text = encodeWire(value);
    expect(JSON.parse(text)).toEqual({ a: [1, { file: { name: 'x.csv', content: { $bytes: 'aGk=' } } }], b: 'text' });
    expect(decodeWire(text)).toEqual(value);
  });

  it('writes a value without bytes as JSON.stringify does, toJSON and undefined fields included', () => {
    const when = new Date(Date.UTC(2026, 11, 2));
    const value = { lines: [{ id: 1, name: 'Brick 2 x 4', placed: null, gone: undefined }], when, n: [1.5, -0] };
    expect(encodeWire(value)).toBe(JSON.stringify(value));
    expect(encodeWire('plain')).toBe('"plain"');
    expect(encodeWire(null)).toBe('null');
    // An object whose toJSON gives bytes: written as bytes, as the replacer sees what toJSON gives.
    const wrapped = { toJSON: () => new Uint8Array([1]) };
    expect(JSON.parse(encodeWire({ wrapped }))).toEqual({ wrapped: { $bytes: 'AQ==' } });
  });
});
