/**
 * The natural order of bin names as staff write them (issue 65 §1, SPEC §16): `A2` before `A10`,
 * `B-1-9` before `B-1-10`, `a3` beside `A3`. A location is read as words and numbers; what lies between
 * them (spaces, `-`, `.`, `/`, `_`) only separates, so `B-1-10`, `B 1 10` and `B.1.10` are one place in
 * the walk. A number of any length is compared as a number; a word without its case and accents (`Ä`
 * beside `A`). A lot without a location comes after every located one.
 */

/** A digit run after NFKC (full-width digits are digits); any other letter or number is part of a word. */
const TOKEN = /[0-9]+|[^\s\p{P}\p{S}0-9]+/gu;

/** Where a word's key starts, and a number's: a number before a word at the same place (`A1` < `AB`). */
const NUMBER_MARK = '1';
const WORD_MARK = '2';
/** Between tokens: below every mark, so a location that is a prefix of another comes first (`A` < `A1`). */
const BETWEEN = ' ';

function wordKey(word: string): string {
  // Accents and case say nothing of where a drawer is: `Ä` and `a` sit with `A`.
  return word.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
}

function numberKey(digits: string): string {
  const value = digits.replace(/^0+(?=\d)/, '');
  // Its length first, so a longer number is a larger one whatever its length (no float, no overflow).
  return value.length.toString().padStart(6, '0') + value;
}

/**
 * A key that sorts locations in natural order by plain string comparison (`<`, or a `C` collation);
 * null for no location (null, or only blanks). Locations written differently may share a key (`A01`,
 * `a1`, `A-1`): `compareLocations` orders those by their text.
 */
export function locationSortKey(location: string | null | undefined): string | null {
  if (location === null || location === undefined) return null;
  const tokens = location.normalize('NFKC').match(TOKEN);
  if (tokens === null) return location.trim() === '' ? null : WORD_MARK + wordKey(location.trim());
  return tokens.map((t) => (/^[0-9]/.test(t) ? NUMBER_MARK + numberKey(t) : WORD_MARK + wordKey(t))).join(BETWEEN);
}

function byCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Natural order of two locations (a comparator for `Array.prototype.sort`): by `locationSortKey`, a
 * missing location last; where keys are equal, by the text itself, so that the order never depends on
 * the order things came in (`A-1` before `A01` before `A1` before `a1`). Equal text compares equal: lots in one bin
 * keep the order they were given in.
 */
export function compareLocations(a: string | null | undefined, b: string | null | undefined): number {
  const ka = locationSortKey(a);
  const kb = locationSortKey(b);
  if (ka === null || kb === null) return ka === kb ? 0 : ka === null ? 1 : -1;
  return byCodeUnits(ka, kb) || byCodeUnits((a ?? '').trim(), (b ?? '').trim());
}

/**
 * `xs` sorted by their locations in natural order (as `compareLocations`), then by `then`; stable. Each
 * location's key is made once, not at every comparison: a stock of 50,000 lots sorts in milliseconds.
 */
export function sortByLocation<T>(
  xs: readonly T[],
  locationOf: (x: T) => string | null | undefined,
  then: (a: T, b: T) => number = () => 0,
): T[] {
  const decorated = xs.map((x) => {
    const location = locationOf(x);
    return { x, key: locationSortKey(location), text: (location ?? '').trim() };
  });
  decorated.sort((a, b) => {
    if (a.key === null || b.key === null) return a.key === b.key ? then(a.x, b.x) : a.key === null ? 1 : -1;
    return byCodeUnits(a.key, b.key) || byCodeUnits(a.text, b.text) || then(a.x, b.x);
  });
  return decorated.map((d) => d.x);
}
