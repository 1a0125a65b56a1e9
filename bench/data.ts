import fs from 'node:fs';
import zlib from 'node:zlib';
import { shared } from '../tools/shared-data.ts';

/** The real data beside the project, read in place (never copied into it); null when absent. */
export { shared };

/** Rebrickable's parts.csv, uncompressed; generated rows of the same shape when the real file is absent. */
export function partsCsv(): { text: string; ranOn: string } {
  const real = shared('rebrickable', 'parts.csv.gz');
  if (real)
    return { text: zlib.gunzipSync(fs.readFileSync(real)).toString('utf8'), ranOn: `Rebrickable parts.csv (${real})` };
  const shapes = ['Brick', 'Plate', 'Tile', 'Slope', 'Plate, Modified', 'Brick, Round'];
  const rows = Array.from({ length: 61_770 }, (_, i) => {
    const a = 1 + (i % 8);
    const b = 1 + ((i >> 3) % 12);
    return `${3000 + i},"${shapes[i % shapes.length]} ${a} x ${b}${i % 3 ? ` with Print ${i}` : ''}",${i % 60},Plastic`;
  });
  return {
    text: `part_num,name,part_cat_id,part_material\n${rows.join('\n')}\n`,
    ranOn: '61,770 generated parts (../shared/data is absent)',
  };
}
