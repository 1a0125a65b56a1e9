import { BrickWorkError } from '../../vocabulary/errors.ts';
import type { CsvTable } from '../../text/csv.ts';
import type { CatalogueFile, CatalogueRecord } from '../records.ts';
import { optionalId, requiredId, requiredText } from './fields.ts';

/**
 * Rebrickable's CSV downloads (SPEC §5): parts.csv as parts, part_categories.csv as categories,
 * sets.csv as sets. Rebrickable's colours and minifigs use another numbering than BrickLink's and are
 * refused, as are its other files.
 */
export function readRebrickable(name: string, table: CsvTable): CatalogueFile | null {
  const h = table.header.map((c) => c.toLowerCase());
  const col = (c: string) => h.indexOf(c);
  const source = `rebrickable:${name}`;
  const refuse = (what: string, advice: string) =>
    new BrickWorkError('parse-error', `${name} is Rebrickable's ${what}. ${advice}`);

  if (col('part_num') === 0 && col('name') >= 0 && col('part_cat_id') >= 0) {
    const [no, nm, cat] = [col('part_num'), col('name'), col('part_cat_id')];
    const records: CatalogueRecord[] = table.rows.map(({ line, cells }) => ({
      kind: 'item',
      type: 'P',
      no: requiredText(cells[no], 'part number', name, line),
      name: requiredText(cells[nm], 'name', name, line),
      categoryId: optionalId(cells[cat], 'category id', name, line),
    }));
    return { name, format: 'Rebrickable parts.csv', source, records };
  }
  if (col('set_num') === 0 && col('name') >= 0) {
    const [no, nm] = [col('set_num'), col('name')];
    const records: CatalogueRecord[] = table.rows.map(({ line, cells }) => ({
      kind: 'item',
      type: 'S',
      no: requiredText(cells[no], 'set number', name, line),
      name: requiredText(cells[nm], 'name', name, line),
      categoryId: null, // Rebrickable's themes are not BrickLink categories
    }));
    return { name, format: 'Rebrickable sets.csv', source, records };
  }
  if (h.length === 2 && h[0] === 'id' && h[1] === 'name') {
    const records: CatalogueRecord[] = table.rows.map(({ line, cells }) => ({
      kind: 'category',
      id: requiredId(cells[0], 'category id', name, line),
      name: requiredText(cells[1], 'category name', name, line),
    }));
    return { name, format: 'Rebrickable part_categories.csv', source, records };
  }
  if (h[0] === 'id' && h.includes('rgb')) {
    throw refuse(
      'colour list',
      "Its colour ids are Rebrickable's, not BrickLink's, so it can't be loaded as BrickLink colours, and it names no BrickLink colour to translate them to. " +
        "Load BrickLink's colours download, and Rebrickable's colour list with its external ids (the API's JSON) to translate Rebrickable's colours.",
    );
  }
  if (h[0] === 'fig_num') {
    throw refuse(
      'minifig list',
      "Its minifig numbers (fig-…) are Rebrickable's, not BrickLink's, so it can't be loaded as BrickLink minifigs. Load BrickLink's minifig download instead.",
    );
  }
  if (['element_id', 'rel_type', 'inventory_id'].includes(h[0] ?? '') || (h[0] === 'id' && h.includes('parent_id'))) {
    throw refuse(
      'catalogue data of another kind',
      'brick-work loads parts.csv, part_categories.csv, sets.csv, elements.csv and part_relationships.csv from Rebrickable.',
    );
  }
  return null;
}
