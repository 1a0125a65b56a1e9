/**
 * Name folding for the placement rule (SPEC §6): case and spacing only, so "Brick  2 x  4" (LDraw's
 * spacing) and "brick 2 x 4" are one name. Punctuation is kept here; the suggestions fold it too (§7).
 * This is the fold stored in `catalogue_item.name_key`, so changing it means refilling that column.
 */
export function foldName(name: string): string {
  return name.normalize('NFKC').toLowerCase().replace(/\s+/gu, ' ').trim();
}
