/**
 * A PNG read into 8-bit RGB over white, for a PDF page (SPEC §16's printed pick list): PDF takes RGB
 * samples but not PNG's alpha interleaved, and a picture printed on white paper looks the same laid on
 * white. Pictures come from BrickLink's and Rebrickable's servers (palette, grey, RGB, with or without
 * alpha). What this can't read (interlaced, damaged) gives null, and the row prints without its picture.
 */
import zlib from 'node:zlib';

export interface RgbImage {
  readonly width: number;
  readonly height: number;
  /** width × height × 3 bytes, row by row. */
  readonly rgb: Uint8Array;
}

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
/** Samples per pixel of each colour type. */
const CHANNELS: Readonly<Record<number, number>> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };
/** Pictures larger than this are no item picture: not decoded (a hostile file could ask gigabytes). */
const MAX_PIXELS = 4096 * 4096;

interface Header {
  width: number;
  height: number;
  depth: number;
  colourType: number;
  interlace: number;
}

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/** Undoes PNG's per-row filters in place; gives the rows without their filter bytes. */
function unfilter(data: Uint8Array, h: Header, channels: number): Uint8Array | null {
  const stride = Math.ceil((h.width * channels * h.depth) / 8);
  const bpp = Math.max(1, (channels * h.depth) / 8);
  if (data.length < h.height * (stride + 1)) return null;
  const out = new Uint8Array(h.height * stride);
  for (let y = 0; y < h.height; y++) {
    const filter = data[y * (stride + 1)];
    const src = y * (stride + 1) + 1;
    const row = y * stride;
    const prev = row - stride;
    for (let x = 0; x < stride; x++) {
      const raw = data[src + x] as number;
      const left = x >= bpp ? (out[row + x - bpp] as number) : 0;
      const up = y > 0 ? (out[prev + x] as number) : 0;
      const upLeft = y > 0 && x >= bpp ? (out[prev + x - bpp] as number) : 0;
      let v: number;
      switch (filter) {
        case 0:
          v = raw;
          break;
        case 1:
          v = raw + left;
          break;
        case 2:
          v = raw + up;
          break;
        case 3:
          v = raw + ((left + up) >> 1);
          break;
        case 4:
          v = raw + paeth(left, up, upLeft);
          break;
        default:
          return null;
      }
      out[row + x] = v & 0xff;
    }
  }
  return out;
}

/** Sample `i` of row `row` (at `depth` bits), scaled to 0–255. */
function sample(rows: Uint8Array, rowStart: number, i: number, depth: number): number {
  if (depth === 8) return rows[rowStart + i] as number;
  if (depth === 16) return rows[rowStart + i * 2] as number;
  const perByte = 8 / depth;
  const byte = rows[rowStart + Math.floor(i / perByte)] as number;
  const shift = 8 - depth * ((i % perByte) + 1);
  const v = (byte >> shift) & ((1 << depth) - 1);
  return depth === 1 ? v * 255 : depth === 2 ? v * 85 : v * 17;
}

/** Sample `i` of a palette row, unscaled (an index). */
function index(rows: Uint8Array, rowStart: number, i: number, depth: number): number {
  if (depth === 8) return rows[rowStart + i] as number;
  const perByte = 8 / depth;
  const byte = rows[rowStart + Math.floor(i / perByte)] as number;
  return (byte >> (8 - depth * ((i % perByte) + 1))) & ((1 << depth) - 1);
}

/** The PNG's pixels as RGB over white; null for what is no PNG this can read. */
export function pngToRgb(png: Uint8Array): RgbImage | null {
  if (png.length < 8 || SIGNATURE.some((b, i) => png[i] !== b)) return null;
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  let header: Header | null = null;
  let palette: Uint8Array | null = null;
  let alphas: Uint8Array | null = null;
  const idat: Uint8Array[] = [];
  for (let at = 8; at + 8 <= png.length;) {
    const length = view.getUint32(at);
    const type = String.fromCharCode(...png.subarray(at + 4, at + 8));
    const data = png.subarray(at + 8, at + 8 + length);
    if (data.length < length) return null;
    if (type === 'IHDR' && length >= 13) {
      header = {
        width: view.getUint32(at + 8),
        height: view.getUint32(at + 12),
        depth: data[8] as number,
        colourType: data[9] as number,
        interlace: data[12] as number,
      };
    } else if (type === 'PLTE') palette = data;
    else if (type === 'tRNS') alphas = data;
    else if (type === 'IDAT') idat.push(data);
    else if (type === 'IEND') break;
    at += 12 + length;
  }
  const h = header;
  if (h === null || h.interlace !== 0 || h.width === 0 || h.height === 0 || h.width * h.height > MAX_PIXELS)
    return null;
  const channels = CHANNELS[h.colourType];
  if (channels === undefined || ![1, 2, 4, 8, 16].includes(h.depth)) return null;
  if (h.colourType === 3 && palette === null) return null;
  let inflated: Uint8Array;
  try {
    inflated = zlib.inflateSync(Buffer.concat(idat), {
      maxOutputLength: h.height * (Math.ceil((h.width * channels * h.depth) / 8) + 1),
    });
  } catch {
    return null;
  }
  const rows = unfilter(inflated, h, channels);
  if (rows === null) return null;
  const stride = Math.ceil((h.width * channels * h.depth) / 8);
  const rgb = new Uint8Array(h.width * h.height * 3);
  for (let y = 0; y < h.height; y++) {
    const rowStart = y * stride;
    for (let x = 0; x < h.width; x++) {
      let r: number, g: number, b: number, a: number;
      if (h.colourType === 3) {
        const i = index(rows, rowStart, x, h.depth);
        r = palette?.[i * 3] ?? 0;
        g = palette?.[i * 3 + 1] ?? 0;
        b = palette?.[i * 3 + 2] ?? 0;
        a = alphas?.[i] ?? 255;
      } else {
        const s = (c: number) => sample(rows, rowStart, x * channels + c, h.depth);
        if (channels <= 2) r = g = b = s(0);
        else [r, g, b] = [s(0), s(1), s(2)];
        a = channels === 2 ? s(1) : channels === 4 ? s(3) : 255;
      }
      // Laid on white paper.
      const o = (y * h.width + x) * 3;
      rgb[o] = Math.round((r * a + 255 * (255 - a)) / 255);
      rgb[o + 1] = Math.round((g * a + 255 * (255 - a)) / 255);
      rgb[o + 2] = Math.round((b * a + 255 * (255 - a)) / 255);
    }
  }
  return { width: h.width, height: h.height, rgb };
}
