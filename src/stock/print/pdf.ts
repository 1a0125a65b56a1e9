/**
 * A list on paper as a PDF (SPEC §16, the CLI's `--pdf`), written here without a browser: the shop's
 * computer that runs a cron job or a script has none to lend. PDF 1.4 with the two standard fonts every
 * reader has (Helvetica and its bold, WinAnsi), a box to tick per row, the location large, pictures as RGB
 * images, the table's head again on every page and "page N of M" at its foot.
 */
import zlib from 'node:zlib';
import { pngToRgb, type RgbImage } from './png-rgb.ts';
import { pageSize, rowWhat, rowWhere, type PrintableList, type PrintLayout, type PrintRow } from './printable.ts';

/** Helvetica's advance widths (thousandths of the size) of ASCII 32–126, from its Adobe font metrics. */
// prettier-ignore
const HELVETICA = [
  278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278, 556, 556, 556, 556, 556, 556, 556,
  556, 556, 556, 278, 278, 584, 584, 584, 556, 1015, 667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833,
  722, 778, 667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 278, 278, 278, 469, 556, 333, 556, 556, 500, 556,
  556, 278, 556, 556, 222, 222, 500, 222, 833, 556, 556, 556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334,
  260, 334, 584,
];

/** WinAnsi's bytes 0x80–0x9F that are not Latin-1's, by character. */
const WIN_ANSI_EXTRA: Readonly<Record<string, number>> = {
  '€': 0x80,
  '‚': 0x82,
  ƒ: 0x83,
  '„': 0x84,
  '…': 0x85,
  '†': 0x86,
  '‡': 0x87,
  ˆ: 0x88,
  '‰': 0x89,
  Š: 0x8a,
  '‹': 0x8b,
  Œ: 0x8c,
  Ž: 0x8e,
  '‘': 0x91,
  '’': 0x92,
  '“': 0x93,
  '”': 0x94,
  '•': 0x95,
  '–': 0x96,
  '—': 0x97,
  '˜': 0x98,
  '™': 0x99,
  š: 0x9a,
  '›': 0x9b,
  œ: 0x9c,
  ž: 0x9e,
  Ÿ: 0x9f,
};

/** The text in WinAnsi bytes: what the standard fonts can show; any other character as "?". */
function winAnsi(text: string): number[] {
  const out: number[] = [];
  for (const ch of text.normalize('NFC')) {
    const code = ch.codePointAt(0) ?? 63;
    if ((code >= 32 && code <= 126) || (code >= 160 && code <= 255)) out.push(code);
    else out.push(WIN_ANSI_EXTRA[ch] ?? 63);
  }
  return out;
}

/** A byte's width in the font: Helvetica's own for ASCII, an average for the rest, a bold a little wider. */
function byteWidth(byte: number, bold: boolean): number {
  const w = byte >= 32 && byte <= 126 ? (HELVETICA[byte - 32] ?? 556) : byte === 0x85 ? 1000 : 600;
  return bold ? w * 1.08 : w;
}

function textWidth(bytes: readonly number[], size: number, bold: boolean): number {
  return (bytes.reduce((sum, b) => sum + byteWidth(b, bold), 0) * size) / 1000;
}

/** The text cut to `width` with an ellipsis: a row is one line, and never runs into the next column. */
function fitted(text: string, width: number, size: number, bold: boolean): number[] {
  const bytes = winAnsi(text);
  if (textWidth(bytes, size, bold) <= width) return bytes;
  const room = width - (byteWidth(0x85, bold) * size) / 1000;
  let used = 0;
  let n = 0;
  while (n < bytes.length && used + (byteWidth(bytes[n] as number, bold) * size) / 1000 <= room) {
    used += (byteWidth(bytes[n] as number, bold) * size) / 1000;
    n++;
  }
  return [...bytes.slice(0, n), 0x85];
}

/** Words wrapped to lines of `width` (the lines listed apart, which are sentences). */
function wrapped(text: string, width: number, size: number): number[][] {
  const lines: number[][] = [];
  let line: number[] = [];
  for (const word of text.split(/\s+/).filter((w) => w !== '')) {
    const next = line.length === 0 ? winAnsi(word) : [...line, 32, ...winAnsi(word)];
    if (textWidth(next, size, false) <= width || line.length === 0) line = next;
    else {
      lines.push(line);
      line = winAnsi(word);
    }
  }
  if (line.length > 0) lines.push(line);
  return lines.map((l) =>
    textWidth(l, size, false) <= width ? l : fitted(String.fromCharCode(...l), width, size, false),
  );
}

/** A PDF literal string of WinAnsi bytes. */
function literal(bytes: readonly number[]): string {
  return `(${bytes
    .map((b) =>
      b === 0x28 || b === 0x29 || b === 0x5c
        ? `\\${String.fromCharCode(b)}`
        : b < 32 || b > 126
          ? `\\${b.toString(8).padStart(3, '0')}`
          : String.fromCharCode(b),
    )
    .join('')})`;
}

const n2 = (v: number) => (Math.round(v * 100) / 100).toString();

/** Where each column starts and how wide it is, for a page `width` wide inside its margins. */
function columns(width: number, pictures: boolean) {
  const tick = 20;
  const picture = pictures ? 42 : 0;
  const quantity = 50;
  const where = Math.max(90, width * 0.2);
  const colour = width * 0.15;
  const note = width * 0.2;
  const what = width - tick - picture - quantity - where - colour - note;
  let x = 0;
  const at = (w: number) => {
    const start = x;
    x += w;
    return { x: start, w };
  };
  return {
    tick: at(tick),
    where: at(where),
    picture: at(picture),
    what: at(what),
    colour: at(colour),
    quantity: at(quantity),
    note: at(note),
  };
}

const MARGIN = 34;

class Canvas {
  readonly ops: string[] = [];
  text(x: number, y: number, size: number, bytes: readonly number[], bold = false, grey = false): void {
    this.ops.push(
      `BT ${grey ? '0.3 g ' : ''}/${bold ? 'F2' : 'F1'} ${size} Tf ${n2(x)} ${n2(y)} Td ${literal(bytes)} Tj ET${grey ? ' 0 g' : ''}`,
    );
  }
  line(x1: number, y1: number, x2: number, y2: number, width: number, grey = 0): void {
    this.ops.push(`${grey} G ${width} w ${n2(x1)} ${n2(y1)} m ${n2(x2)} ${n2(y2)} l S 0 G`);
  }
  box(x: number, y: number, size: number): void {
    this.ops.push(`1 w ${n2(x)} ${n2(y)} ${size} ${size} re S`);
  }
  image(name: string, x: number, y: number, w: number, h: number): void {
    this.ops.push(`q ${n2(w)} 0 0 ${n2(h)} ${n2(x)} ${n2(y)} cm /${name} Do Q`);
  }
}

/** The list as a PDF laid out as `layout` says. */
export function printablePdf(list: PrintableList, layout: PrintLayout): Uint8Array {
  const [pageW, pageH] = pageSize(layout);
  const inner = pageW - 2 * MARGIN;
  const col = columns(inner, layout.pictures);
  const rowH = layout.pictures ? 42 : 24;
  const images: { name: string; image: RgbImage }[] = [];
  const imageOf = new Map<PrintRow, string>();
  if (layout.pictures)
    for (const row of list.rows) {
      const image = row.picture === null ? null : pngToRgb(row.picture);
      if (image === null) continue;
      const name = `Im${images.length + 1}`;
      images.push({ name, image });
      imageOf.set(row, name);
    }

  const pages: Canvas[] = [];
  let page = new Canvas();
  let y = 0;
  const head = () => {
    y -= 12;
    const cells: [keyof typeof col, string][] = [
      ['where', 'Location'],
      ['what', 'Item'],
      ['colour', 'Colour'],
      ['note', 'Note'],
    ];
    for (const [k, label] of cells) page.text(MARGIN + col[k].x + 3, y, 8, winAnsi(label), false, true);
    const q = winAnsi(list.quantityHeading);
    page.text(MARGIN + col.quantity.x + col.quantity.w - 3 - textWidth(q, 8, false), y, 8, q, false, true);
    y -= 4;
    page.line(MARGIN, y, MARGIN + inner, y, 1);
  };
  const newPage = (first: boolean) => {
    page = new Canvas();
    pages.push(page);
    y = pageH - MARGIN;
    if (first) {
      y -= 15;
      page.text(MARGIN, y, 15, fitted(list.title, inner, 15, true), true);
      y -= 14;
      page.text(MARGIN, y, 10, fitted(list.subtitle, inner, 10, false), false, true);
      y -= 8;
    }
  };
  const bottom = MARGIN + 14;

  newPage(true);
  head();
  for (const row of list.rows) {
    if (y - rowH < bottom) {
      newPage(false);
      head();
    }
    const mid = y - rowH / 2;
    page.box(MARGIN + col.tick.x + 3, mid - 6, 12);
    const located = row.location !== null;
    page.text(
      MARGIN + col.where.x + 3,
      mid - (located ? 5 : 3),
      located ? 15 : 9,
      fitted(rowWhere(row), col.where.w - 6, located ? 15 : 9, located),
      located,
    );
    const image = imageOf.get(row);
    const img = images.find((i) => i.name === image)?.image;
    if (image !== undefined && img !== undefined) {
      const scale = Math.min(34 / img.width, 34 / img.height);
      const w = img.width * scale;
      const h = img.height * scale;
      page.image(image, MARGIN + col.picture.x + 4 + (34 - w) / 2, mid - h / 2, w, h);
    }
    page.text(MARGIN + col.what.x + 3, mid - 3.5, 10, fitted(rowWhat(row), col.what.w - 6, 10, false));
    page.text(MARGIN + col.colour.x + 3, mid - 3.5, 10, fitted(row.colour ?? '', col.colour.w - 6, 10, false));
    const q = winAnsi(row.quantity.toLocaleString('en-US'));
    page.text(MARGIN + col.quantity.x + col.quantity.w - 3 - textWidth(q, 13, true), mid - 4.5, 13, q, true);
    page.text(MARGIN + col.note.x + 3, mid - 3, 9, fitted(row.note ?? '', col.note.w - 6, 9, false));
    y -= rowH;
    page.line(MARGIN, y, MARGIN + inner, y, 0.5, 0.6);
  }
  for (const apart of list.apart.filter((a) => a.lines.length > 0)) {
    if (y - 40 < bottom) newPage(false);
    y -= 22;
    page.text(MARGIN, y, 11, fitted(apart.heading, inner, 11, true), true);
    for (const line of apart.lines)
      for (const [i, text] of wrapped(line, inner - 12, 9).entries()) {
        if (y - 12 < bottom) newPage(false);
        y -= 12;
        if (i === 0) page.text(MARGIN + 2, y, 9, [0x95]);
        page.text(MARGIN + 12, y, 9, text);
      }
  }
  pages.forEach((p, i) => {
    const foot = winAnsi(`page ${i + 1} of ${pages.length}`);
    p.text(pageW - MARGIN - textWidth(foot, 8, false), MARGIN - 4, 8, foot, false, true);
  });
  return writePdf(list.title, pageW, pageH, pages, images);
}

/** The file: objects, their offsets, the trailer. */
function writePdf(
  title: string,
  pageW: number,
  pageH: number,
  pages: readonly Canvas[],
  images: readonly { name: string; image: RgbImage }[],
): Uint8Array {
  const objects: Buffer[] = [];
  const add = (body: Buffer | string) => {
    objects.push(typeof body === 'string' ? Buffer.from(body, 'latin1') : body);
    return objects.length;
  };
  const stream = (dict: string, data: Buffer) =>
    Buffer.concat([
      Buffer.from(`<< ${dict} /Length ${data.length} >>\nstream\n`, 'latin1'),
      data,
      Buffer.from('\nendstream', 'latin1'),
    ]);

  const catalog = add('<< /Type /Catalog /Pages 2 0 R >>');
  add(''); // the page tree, written once the pages are numbered
  const regular = add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>');
  const bold = add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>');
  const imageIds = images.map(({ image }) =>
    add(
      stream(
        `/Type /XObject /Subtype /Image /Width ${image.width} /Height ${image.height} /ColorSpace /DeviceRGB /BitsPerComponent 8 /Filter /FlateDecode`,
        zlib.deflateSync(image.rgb),
      ),
    ),
  );
  const xobjects = images.map((im, i) => `/${im.name} ${imageIds[i]} 0 R`).join(' ');
  const resources = `<< /Font << /F1 ${regular} 0 R /F2 ${bold} 0 R >>${images.length > 0 ? ` /XObject << ${xobjects} >>` : ''} >>`;
  const pageIds = pages.map((p) => {
    const content = add(stream('/Filter /FlateDecode', zlib.deflateSync(Buffer.from(p.ops.join('\n'), 'latin1'))));
    return add(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${n2(pageW)} ${n2(pageH)}] /Resources ${resources} /Contents ${content} 0 R >>`,
    );
  });
  objects[1] = Buffer.from(
    `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${pageIds.length} >>`,
    'latin1',
  );
  const info = add(`<< /Title ${literal(winAnsi(title))} /Producer (brick-work) >>`);

  const parts: Buffer[] = [Buffer.from('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  let offset = parts[0]?.length ?? 0;
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(offset);
    const obj = Buffer.concat([Buffer.from(`${i + 1} 0 obj\n`, 'latin1'), body, Buffer.from('\nendobj\n', 'latin1')]);
    parts.push(obj);
    offset += obj.length;
  });
  const xref = [
    'xref',
    `0 ${objects.length + 1}`,
    '0000000000 65535 f ',
    ...offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n `),
    'trailer',
    `<< /Size ${objects.length + 1} /Root ${catalog} 0 R /Info ${info} 0 R >>`,
    'startxref',
    String(offset),
    '%%EOF',
    '',
  ].join('\n');
  parts.push(Buffer.from(xref, 'latin1'));
  return new Uint8Array(Buffer.concat(parts));
}
