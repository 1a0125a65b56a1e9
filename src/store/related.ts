import type { StoreDb } from './db.ts';

/**
 * The related-parts suggestion's reads (`placement/related.ts`): catalogue parts, the relationship table
 * (`part_relationship`, in Rebrickable's numbering) and the element tables. Prepared once per question,
 * asked for each number it finds.
 */
export function relatedReader(db: StoreDb) {
  const part = db.prepare<[string], { no: string; name: string }>(
    "SELECT item_no AS no, name FROM catalogue_item WHERE item_type = 'P' AND item_no = ?",
  );
  const asChild = db.prepare<[string], { rel: string; other: string }>(
    'SELECT rel_type AS rel, parent_no AS other FROM part_relationship WHERE child_no = ?',
  );
  const asParent = db.prepare<[string], { rel: string; other: string }>(
    'SELECT rel_type AS rel, child_no AS other FROM part_relationship WHERE parent_no = ?',
  );
  const elementParts = db
    .prepare<[string], string>('SELECT DISTINCT item_no FROM element_code WHERE element_id = ? ORDER BY item_no')
    .pluck();
  return {
    /** A catalogue part of this number: its number as the catalogue spells it, and its name. */
    part: (no: string): { no: string; name: string } | undefined => part.get(no),
    /** The relationships where the number is the child: their type (`rel`) and the parent (`other`). */
    asChild: (no: string): { rel: string; other: string }[] => asChild.all(no),
    /** The relationships where the number is the parent: their type (`rel`) and the child (`other`). */
    asParent: (no: string): { rel: string; other: string }[] => asParent.all(no),
    /** The part numbers the element tables give a LEGO element id, in order. */
    elementParts: (id: string): string[] => elementParts.all(id),
  };
}
