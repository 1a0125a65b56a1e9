/**
 * Name folding for the placement rule (SPEC §6): case and spacing only, so "Brick  2 x  4" (LDraw's
 * spacing) and "brick 2 x 4" are one name. Punctuation is kept here; the suggestions fold it too (§7).
 * This is the fold stored in `catalogue_item.name_key`, so changing it means refilling that column.
 */
export function foldName(name: string): string {
  if (plainAscii(name)) return name.toLowerCase();
  // Printable ASCII needs no Unicode normalisation.
  const text = (PRINTABLE_ASCII.test(name) ? name : name.normalize('NFKC')).toLowerCase();
  return ODD_SPACING.test(text) ? text.replace(/\s+/gu, ' ').trim() : text;
}

/**
 * Printable ASCII with single spaces between words, the common case (a catalogue load folds 60,000
 * names): lower case is all its fold is. One regular expression, which V8 runs faster over a catalogue
 * file's sliced strings than a loop of charCodeAt.
 */
const PLAIN_ASCII = /^(?! )(?:[\x21-\x7e]| (?! |$))*$/;
const plainAscii = (name: string): boolean => PLAIN_ASCII.test(name);

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
/** Leading or trailing space, two in a row, or a space that is not ' '. */
const ODD_SPACING = /^\s|\s$|\s\s|[^\S ]/u;

/**
 * A colour name as names of colours are matched across vocabularies (SPEC §6): folded as names are, with
 * LDraw's underscores read as spaces (`Light_Bluish_Grey` = "light bluish grey").
 */
export function colourNameKey(name: string): string {
  return foldName(name.replace(/_/g, ' '));
}

/**
 * A colour name as a list's colour names are compared with the catalogue's (SPEC §8): folded as names are,
 * with `_` and `-` read as spaces, `Grey` as `Gray` and `Transparent` as `Trans` — "Trans_Light_Blue",
 * "Transparent Light Blue" and "Trans-Light Blue" are one name.
 */
export function looseColourKey(name: string): string {
  return foldName(name)
    .replace(/[\s_-]+/g, ' ')
    .trim()
    .replace(/\bgrey\b/g, 'gray')
    .replace(/\btransparent\b/g, 'trans');
}
