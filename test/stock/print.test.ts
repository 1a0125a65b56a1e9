import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { printableHtml } from '../../src/stock/print/html.ts';
import { printablePdf } from '../../src/stock/print/pdf.ts';
import { pngToRgb } from '../../src/stock/print/png-rgb.ts';
import type { PrintableList, PrintLayout, PrintRow } from '../../src/stock/print/printable.ts';
import { png, pngChunk } from '../helpers/png.ts';

/** A PNG of any colour type and depth, from its rows' samples (unfiltered but for `filter` on every row). */
function pngOf(o: {
  width: number;
  height: number;
  colourType: number;
  depth: number;
  rows: number[][];
  palette?: number[];
  trns?: number[];
  filter?: number;
  interlace?: number;
}): Buffer {
  const chunk = pngChunk;
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(o.width, 0);
  ihdr.writeUInt32BE(o.height, 4);
  ihdr.set([o.depth, o.colourType, 0, 0, o.interlace ?? 0], 8);
  const bpp = Math.max(1, Math.ceil((({ 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 }[o.colourType] ?? 1) * o.depth) / 8));
  const filtered = o.rows.map((row, y) => {
    const f = o.filter ?? 0;
    const prev = o.rows[y - 1] ?? row.map(() => 0);
    const out = row.map((v, x) => {
      const left = x >= bpp ? (row[x - bpp] ?? 0) : 0;
      const up = prev[x] ?? 0;
      const pred = f === 1 ? left : f === 2 ? up : f === 3 ? (left + up) >> 1 : 0;
      return (v - pred) & 0xff;
    });
    return [f, ...out];
  });
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    ...(o.palette ? [chunk('PLTE', Buffer.from(o.palette))] : []),
    ...(o.trns ? [chunk('tRNS', Buffer.from(o.trns))] : []),
    chunk('IDAT', zlib.deflateSync(Buffer.from(filtered.flat()))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const row = (over: Partial<PrintRow>): PrintRow => ({
  location: 'A1',
  item: 'P 3001',
  name: 'Brick 2 x 4',
  colour: 'Red',
  quantity: 4,
  note: null,
  picture: null,
  ...over,
});

const LIST: PrintableList = {
  title: 'Pick list: order 28632481',
  subtitle: '3 lots, 16 pieces',
  quantityHeading: 'Take',
  rows: [
    row({ location: 'A2', picture: png([200, 0, 0]) }),
    row({ location: 'A10', item: 'P 3003', name: '(2x2) & <more>', quantity: 10, note: '2 short' }),
    row({ location: null, item: 'P 3004', picture: png([0, 0, 200]) }),
  ],
  apart: [{ heading: 'Not in the walk', lines: ['lot 4: x9 (colour 5), unplaced: not in the catalogue'] }],
};

/** The PDF's objects by number, each stream inflated: what a reader would find at the xref's offsets. */
function readPdf(bytes: Uint8Array): { objects: Map<number, string>; streams: Map<number, Buffer> } {
  const text = Buffer.from(bytes).toString('latin1');
  expect(text.startsWith('%PDF-1.4\n')).toBe(true);
  const startxref = Number(/startxref\n(\d+)\n%%EOF\n$/.exec(text)?.[1]);
  const xref = text.slice(startxref);
  const count = Number(/^xref\n0 (\d+)\n/.exec(xref)?.[1]);
  const entries = xref.split('\n').slice(3, 2 + count);
  const objects = new Map<number, string>();
  const streams = new Map<number, Buffer>();
  entries.forEach((entry, i) => {
    expect(entry).toMatch(/^\d{10} 00000 n $/);
    const at = Number(entry.slice(0, 10));
    const id = i + 1;
    expect(text.startsWith(`${id} 0 obj\n`, at), `object ${id} at its offset`).toBe(true);
    const body = text.slice(at, text.indexOf('\nendobj\n', at));
    objects.set(id, body);
    const s = /\/Length (\d+) >>\nstream\n/.exec(body);
    if (s) {
      const start = at + (s.index ?? 0) + s[0].length;
      const raw = Buffer.from(bytes).subarray(start, start + Number(s[1]));
      streams.set(id, /FlateDecode/.test(body) ? zlib.inflateSync(raw) : raw);
    }
  });
  return { objects, streams };
}

function pagesOf(bytes: Uint8Array) {
  const { objects, streams } = readPdf(bytes);
  const pages = [...objects.entries()].filter(([, b]) => /\/Type \/Page /.test(b));
  return pages.map(([, body]) => ({
    mediaBox: /\/MediaBox \[([^\]]+)\]/.exec(body)?.[1],
    content: streams.get(Number(/\/Contents (\d+) 0 R/.exec(body)?.[1]))?.toString('latin1') ?? '',
  }));
}

describe('a list on paper (SPEC §16)', () => {
  it('is a PDF a reader can open: every object where the xref says, A4 and Letter either way round', () => {
    const cases: [PrintLayout, string][] = [
      [{ paper: 'a4', orientation: 'portrait', pictures: true }, '0 0 595.28 841.89'],
      [{ paper: 'a4', orientation: 'landscape', pictures: true }, '0 0 841.89 595.28'],
      [{ paper: 'letter', orientation: 'portrait', pictures: false }, '0 0 612 792'],
      [{ paper: 'letter', orientation: 'landscape', pictures: false }, '0 0 792 612'],
    ];
    for (const [layout, box] of cases) {
      const pages = pagesOf(printablePdf(LIST, layout));
      expect(pages.map((p) => p.mediaBox)).toEqual([box]);
    }
  });

  it('prints the rows in the walk the list gives, each with a box to tick, the location large, and what is apart after', () => {
    const [page] = pagesOf(printablePdf(LIST, { paper: 'a4', orientation: 'portrait', pictures: true }));
    const content = page?.content ?? '';
    const order = ['(A2)', '(A10)', '\\(no location\\)', '(Not in the walk)'].map((s) => content.indexOf(s));
    expect(order.every((at) => at > 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    // The locations in 15-point bold, a box per row.
    expect(content).toMatch(/\/F2 15 Tf [\d.]+ [\d.]+ Td \(A10\) Tj/);
    expect(content.match(/ 12 12 re S/g)).toHaveLength(3);
    // Text is escaped as PDF strings want; the quantity in bold.
    expect(content).toContain('(P 3003 \\(2x2\\) & <more>)');
    expect(content).toMatch(/\/F2 13 Tf [\d.]+ [\d.]+ Td \(10\) Tj/);
    expect(content).toContain('(page 1 of 1)');
  });

  it('draws the pictures where chosen, and none where not', () => {
    const withPictures = readPdf(printablePdf(LIST, { paper: 'a4', orientation: 'portrait', pictures: true }));
    const images = [...withPictures.objects.values()].filter((b) => /\/Subtype \/Image/.test(b));
    expect(images).toHaveLength(2);
    expect(images[0]).toMatch(/\/Width 48 \/Height 48 \/ColorSpace \/DeviceRGB \/BitsPerComponent 8/);
    const without = readPdf(printablePdf(LIST, { paper: 'a4', orientation: 'portrait', pictures: false }));
    expect([...without.objects.values()].some((b) => /\/Subtype \/Image/.test(b))).toBe(false);
  });

  it('goes on to further pages, the head of the table again on each, "page N of M" on every one', () => {
    const many: PrintableList = {
      ...LIST,
      rows: Array.from({ length: 70 }, (_, i) => row({ location: `B-${i + 1}` })),
    };
    const pages = pagesOf(printablePdf(many, { paper: 'a4', orientation: 'portrait', pictures: true }));
    expect(pages.length).toBeGreaterThan(2);
    pages.forEach((p, i) => {
      expect(p.content).toContain('(Location)');
      expect(p.content).toContain(`(page ${i + 1} of ${pages.length})`);
    });
    const rowsPrinted = pages.map((p) => (p.content.match(/ 12 12 re S/g) ?? []).length);
    expect(rowsPrinted.reduce((a, b) => a + b, 0)).toBe(70);
    // Every row once, in order, across the pages.
    const all = pages.map((p) => p.content).join('\n');
    const at = many.rows.map((r) => all.indexOf(`(${r.location})`));
    expect(at.every((a, i) => a > (at[i - 1] ?? -1))).toBe(true);
  });

  it('writes text outside the fonts as "?", and cuts what overflows its column with an ellipsis', () => {
    const list = { ...LIST, rows: [row({ name: `Snowman ☃ ${'very long name '.repeat(20)}`, colour: 'Ünïcödé' })] };
    const [page] = pagesOf(printablePdf(list, { paper: 'a4', orientation: 'portrait', pictures: false }));
    expect(page?.content).toContain('Snowman ? very long');
    expect(page?.content).toMatch(/\(P 3001 Snowman \? very long[^)]*\\205\) Tj/);
    // Latin-1 letters are the fonts' own (WinAnsi), written as octal escapes.
    expect(page?.content).toContain('(\\334n\\357c\\366d\\351)');
  });

  it('is one self-contained HTML page: @page sets the paper, pictures inlined where chosen, text escaped', () => {
    const html = printableHtml(LIST, { paper: 'letter', orientation: 'landscape', pictures: true });
    expect(html).toContain('@page { size: letter landscape; margin: 12mm; }');
    expect(html.match(/<tr><td class="tick">/g)).toHaveLength(3);
    expect(html.match(/src="data:image\/png;base64,/g)).toHaveLength(2);
    expect(html).toContain('(2x2) &amp; &lt;more&gt;');
    expect(html).not.toMatch(/<script|https?:/);
    expect(html.indexOf('>A2<')).toBeLessThan(html.indexOf('>A10<'));
    const a4 = printableHtml(LIST, { paper: 'a4', orientation: 'portrait', pictures: false });
    expect(a4).toContain('@page { size: A4 portrait;');
    expect(a4).not.toContain('data:image');
  });
});

describe('a picture for the PDF page: any PNG the picture servers send, laid on white', () => {
  it('reads RGB, palette with transparency, grey with alpha, 16-bit, and every row filter', () => {
    const rgb = pngToRgb(png([200, 10, 10], 4, 4));
    expect(rgb?.width).toBe(4);
    expect([...(rgb?.rgb.subarray(0, 3) ?? [])]).toEqual([200, 10, 10]);

    const palette = pngOf({
      width: 4,
      height: 1,
      colourType: 3,
      depth: 2,
      rows: [[0b00011011]],
      palette: [255, 0, 0, 0, 255, 0, 0, 0, 255, 10, 20, 30],
      trns: [255, 0],
    });
    // Index 1 is green, fully transparent: white on paper.
    expect([...(pngToRgb(palette)?.rgb ?? [])]).toEqual([255, 0, 0, 255, 255, 255, 0, 0, 255, 10, 20, 30]);

    const greyAlpha = pngOf({ width: 2, height: 1, colourType: 4, depth: 8, rows: [[0, 255, 0, 0]] });
    expect([...(pngToRgb(greyAlpha)?.rgb ?? [])]).toEqual([0, 0, 0, 255, 255, 255]);

    const sixteen = pngOf({
      width: 1,
      height: 1,
      colourType: 2,
      depth: 16,
      rows: [[0x12, 0x34, 0x56, 0x78, 0x9a, 0xbc]],
    });
    expect([...(pngToRgb(sixteen)?.rgb ?? [])]).toEqual([0x12, 0x56, 0x9a]);

    const samples = [
      [10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 110, 120],
      [15, 25, 35, 45, 55, 65, 75, 85, 95, 105, 115, 125],
    ];
    for (const filter of [0, 1, 2, 3]) {
      const image = pngToRgb(pngOf({ width: 3, height: 2, colourType: 6, depth: 8, rows: samples, filter }));
      // Alpha 40, 80, 120 …: each laid on white.
      const over = (c: number, a: number) => Math.round((c * a + 255 * (255 - a)) / 255);
      expect([...(image?.rgb.subarray(0, 3) ?? [])], `filter ${filter}`).toEqual([
        over(10, 40),
        over(20, 40),
        over(30, 40),
      ]);
    }
  });

  it('gives nothing for what it cannot read, so the row prints without a picture', () => {
    expect(pngToRgb(Buffer.from('GIF89a not a png'))).toBeNull();
    expect(
      pngToRgb(pngOf({ width: 1, height: 1, colourType: 2, depth: 8, rows: [[1, 2, 3]], interlace: 1 })),
    ).toBeNull();
    const truncated = png([1, 2, 3], 8, 8).subarray(0, 60);
    expect(pngToRgb(truncated)).toBeNull();
    const list = { ...LIST, rows: [row({ picture: Buffer.from('not a picture') })] };
    const pdf = readPdf(printablePdf(list, { paper: 'a4', orientation: 'portrait', pictures: true }));
    expect([...pdf.objects.values()].some((b) => /\/Subtype \/Image/.test(b))).toBe(false);
  });
});
