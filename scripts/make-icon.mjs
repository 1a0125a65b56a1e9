// Draws build/icon.png (1024×1024): a red 2×2 brick seen from above. electron-builder makes the
// macOS .icns and the Windows .ico from it. Run once when the icon changes: node scripts/make-icon.mjs
import fs from 'node:fs';
import zlib from 'node:zlib';

const N = 1024;
const px = Buffer.alloc(N * N * 4);
const set = (x, y, [r, g, b, a]) => {
  const i = (y * N + x) * 4;
  px[i] = r;
  px[i + 1] = g;
  px[i + 2] = b;
  px[i + 3] = a;
};
const red = [200, 16, 46, 255];
const dark = [150, 10, 32, 255];
const light = [232, 60, 84, 255];
const inRounded = (x, y, x0, y0, x1, y1, r) => {
  const cx = Math.min(Math.max(x, x0 + r), x1 - r);
  const cy = Math.min(Math.max(y, y0 + r), y1 - r);
  return (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
};
for (let y = 0; y < N; y++) {
  for (let x = 0; x < N; x++) {
    if (!inRounded(x, y, 96, 96, 928, 928, 120)) continue;
    set(x, y, inRounded(x, y, 96, 96, 928, 900, 120) ? red : dark);
    for (const [sx, sy] of [
      [320, 320],
      [704, 320],
      [320, 704],
      [704, 704],
    ]) {
      const d = Math.hypot(x - sx, y - sy);
      if (d <= 150) set(x, y, d > 132 ? dark : d < 110 && x - sx < -30 && y - sy < -30 ? light : red);
    }
  }
}
const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc = (buf) => {
  let c = 0xffffffff;
  for (const b of buf) c = crcTable[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};
const chunk = (type, data) => {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const td = Buffer.concat([Buffer.from(type), data]);
  const c = Buffer.alloc(4);
  c.writeUInt32BE(crc(td));
  return Buffer.concat([len, td, c]);
};
const ihdr = Buffer.alloc(13);
ihdr.writeUInt32BE(N, 0);
ihdr.writeUInt32BE(N, 4);
ihdr[8] = 8;
ihdr[9] = 6;
const raw = Buffer.alloc(N * (N * 4 + 1));
for (let y = 0; y < N; y++) px.copy(raw, y * (N * 4 + 1) + 1, y * N * 4, (y + 1) * N * 4);
const png = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  chunk('IHDR', ihdr),
  chunk('IDAT', zlib.deflateSync(raw, { level: 9 })),
  chunk('IEND', Buffer.alloc(0)),
]);
fs.writeFileSync(new URL('../build/icon.png', import.meta.url), png);
console.log(`build/icon.png: ${png.length} bytes`);
