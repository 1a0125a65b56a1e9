import type { CsvTable } from '../../text/csv.ts';
import type { ItemType } from '../../item-types.ts';
import { rgbOrNull, type CatalogueFile, type CatalogueRecord } from '../records.ts';
import { optionalId, requiredId, requiredText } from './fields.ts';

/**
 * BrickLink's tab-delimited catalogue downloads (SPEC §5): items (category id, category name, number,
 * name, …; the file carries no item type, so it comes from `--type`), colours, categories.
 */
export function readBrickLinkTab(name: string, table: CsvTable, type: ItemType): CatalogueFile | null {
  if (table.delimiter !== '\t') return null;
  const h = table.header.map((c) => c.toLowerCase());
  const col = (c: string) => h.indexOf(c);
  const source = `bricklink:${name}`;

  if (col('number') >= 0 && col('name') >= 0) {
    const [no, nm, cat] = [col('number'), col('name'), col('category id')];
    const records: CatalogueRecord[] = table.rows.map(({ line, cells }) => ({
      kind: 'item',
      type,
      no: requiredText(cells[no], 'item number', name, line),
      name: requiredText(cells[nm], 'name', name, line),
      categoryId: cat < 0 ? null : optionalId(cells[cat], 'category id', name, line),
    }));
    return { name, format: `BrickLink items (tab-delimited, type ${type})`, source, records };
  }
  if (col('color id') >= 0 && col('color name') >= 0) {
    const [id, nm, rgb] = [col('color id'), col('color name'), col('rgb')];
    const records: CatalogueRecord[] = table.rows.map(({ line, cells }) => ({
      kind: 'colour',
      id: requiredId(cells[id], 'colour id', name, line),
      name: requiredText(cells[nm], 'colour name', name, line),
      rgb: rgb < 0 ? null : rgbOrNull(cells[rgb]),
    }));
    return { name, format: 'BrickLink colours (tab-delimited)', source, records };
  }
  if (col('category id') >= 0 && col('category name') >= 0) {
    const [id, nm] = [col('category id'), col('category name')];
    const records: CatalogueRecord[] = table.rows.map(({ line, cells }) => ({
      kind: 'category',
      id: requiredId(cells[id], 'category id', name, line),
      name: requiredText(cells[nm], 'category name', name, line),
    }));
    return { name, format: 'BrickLink categories (tab-delimited)', source, records };
  }
  return null;
}
