import type { CsvTable } from '../../text/csv.ts';
import { BRICKLINK_DOWNLOAD_NAMES, itemTypeOfFileName, type ItemType } from '../../vocabulary/item-types.ts';
import { BrickWorkError, quote } from '../../vocabulary/errors.ts';
import { rgbOrNull, type CatalogueFile, type CatalogueRecord } from '../records.ts';
import { optionalId, requiredId, requiredText } from './fields.ts';

/** Whether a tab-delimited header is BrickLink's items download (which names no item type). */
export function isBrickLinkItemsHeader(header: readonly string[]): boolean {
  const h = header.map((c) => c.toLowerCase());
  return h.includes('number') && h.includes('name');
}

/**
 * The item type of a BrickLink items download: the one chosen (`--type`, the Catalogue screen), else the
 * one its file name says (`Minifigures.txt`); never a guess (SPEC §5): `needs-type` until one is chosen.
 */
export function itemsTypeOf(name: string, chosen: ItemType | null): ItemType {
  const type = chosen ?? itemTypeOfFileName(name);
  if (type !== null) return type;
  throw new BrickWorkError(
    'needs-type',
    `${quote(name)} is a list of BrickLink items, and neither it nor its name says which kind (BrickLink names ` +
      `its downloads ${Object.values(BRICKLINK_DOWNLOAD_NAMES).join(', ')}): choose the kind of item it holds and load it again.`,
  );
}

/**
 * BrickLink's tab-delimited catalogue downloads (SPEC §5): items (category id, category name, number,
 * name, …; the file carries no item type: `itemsTypeOf`), colours, categories.
 */
export function readBrickLinkTab(name: string, table: CsvTable, chosen: ItemType | null): CatalogueFile | null {
  if (table.delimiter !== '\t') return null;
  const h = table.header.map((c) => c.toLowerCase());
  const col = (c: string) => h.indexOf(c);
  const source = `bricklink:${name}`;

  if (isBrickLinkItemsHeader(table.header)) {
    const type = itemsTypeOf(name, chosen);
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
