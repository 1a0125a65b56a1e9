/**
 * Folding for suggestions (SPEC §7): case, spacing and punctuation, so that "Brick  2 x  4",
 * "brick 2 x 4" and "Brick 2 x 4," are the same words. Letters and digits of any script are kept.
 */
export function suggestWords(name: string): string[] {
  // Printable ASCII (nearly every catalogue name) takes a cheaper path to the same answer.
  const ascii = PRINTABLE_ASCII.test(name);
  const text = (ascii ? name : name.normalize('NFKC')).toLowerCase();
  return text.split(ascii ? ASCII_SEPARATORS : SEPARATORS).filter(Boolean);
}

/** The words of `suggestWords`, joined by one space: a name's key for the longest prefix (one pass, for index builds). */
export function suggestKey(name: string): string {
  const ascii = PRINTABLE_ASCII.test(name);
  const text = (ascii ? name : name.normalize('NFKC')).toLowerCase();
  return text.replace(ascii ? ASCII_SEPARATOR_RUNS : SEPARATOR_RUNS, ' ').trim();
}

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
const ASCII_SEPARATOR_RUNS = /[^a-z0-9]+/g;
const SEPARATOR_RUNS = /[^\p{L}\p{N}]+/gu;
const ASCII_SEPARATORS = /[^a-z0-9]+/;
const SEPARATORS = /[^\p{L}\p{N}]+/u;

/** Numbers match without regard to case or surrounding spaces. */
export function foldNumber(no: string): string {
  return no.trim().toLowerCase();
}
