/**
 * Tokens for the closeness of two names (SPEC §7 rule 3): what makes "Plate, Modified 1 x 2 w. Door
 * Rails" and "Plate Special 1 x 2 with Door Rail" close.
 * - Case, spacing and punctuation fold away; `w.` and `w/` are "with", `w/o` "without"; "°" and "Ø" go; `16,5` = `16.5`;
 *   an angle after a slash is an angle (`2X3/25°` is 2 x 3 at 25°).
 * - A size — `1 x 2`, `1X2`, `2 x 2 x 2/3`, LDraw's `2 x 2 x 1.667` — is one token, its fractions
 *   written as decimals to two places (1 1/3 = 1.333 = 1.33), so every spelling of one size is one token.
 * - Word forms fold: plurals (`studs` = `stud`, `accessories` = `accessory`, `boxes` = `box`).
 * - A length in studs is its number, in LEGO's words (`6M`, for module) and BrickLink's (`6L`); other
 *   numbers with units stay whole words (`5.5`, `3mm`).
 * - A gear's teeth in LEGO's words (`Z24`, German Zähne) are its number and `tooth` (`Gear 24 Tooth`).
 */

export interface NameTokens {
  /** Folded words, in order, without the sizes. */
  readonly words: readonly string[];
  /** Sizes, each its dimensions joined by `x` (`1x2`, `2x2x0.67`). */
  readonly sizes: readonly string[];
}

/** A dimension: a whole or decimal number, a fraction, or a whole number and a fraction (`1 1/3`). */
const DIM = String.raw`(?:\d+\s+\d+/\d+|\d+/\d+|\d+(?:\.\d+)?)`;
const SIZE = new RegExp(String.raw`(?<![\d./])${DIM}(?:\s*x\s*${DIM})+(?![\d/])`, 'g');
const WITH = /(^|[^\p{L}\p{N}])w[./](?=\s|\p{L}|$)/gu;
const WITHOUT = /(^|[^\p{L}\p{N}])w\/o(?![\p{L}\p{N}])/gu;
const WORD = /\d+(?:\.\d+)?[\p{L}]*|[\p{L}\p{N}]+/gu;
const WORD_ASCII = /\d+(?:\.\d+)?[a-z]*|[a-z0-9]+/g;
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
const HAS_X_BETWEEN_DIGITS = /\d\s*x\s*\d/;
/** LEGO's count of a gear's teeth (`Z24`, German Zähne): the number and `tooth`, as the others write it (`Gear 24 Tooth`). */
const GEAR_TEETH = /^z(\d{1,3})$/;

function dimension(text: string): string {
  const t = text.trim();
  let value: number;
  const mixed = /^(\d+)\s+(\d+)\/(\d+)$/.exec(t);
  const fraction = /^(\d+)\/(\d+)$/.exec(t);
  if (mixed) value = Number(mixed[1]) + Number(mixed[2]) / Number(mixed[3]);
  else if (fraction) value = Number(fraction[1]) / Number(fraction[2]);
  else value = Number(t);
  if (!Number.isFinite(value)) return t;
  return String(Math.round(value * 100) / 100);
}

/**
 * Signs that say nothing apart from their number, folded without moving any character: "°" and the
 * diameter "Ø" go (`Ø3.2` = `3.2`), and a decimal comma is a point (`Ø16,5` = `16.5`).
 */
function foldSigns(text: string): string {
  let out = text;
  // LEGO writes a slope's angle after its size with a slash (`2X3/25°`): an angle, not the fraction 3/25.
  if (out.includes('/')) out = out.replace(/\/(?=\s*\d+(?:[.,]\d+)?\s*(?:°|deg))/g, ' ');
  if (out.includes('°') || out.includes('ø')) out = out.replace(/[°ø]/g, ' ');
  if (out.includes(',')) out = out.replace(/(?<=\d),(?=\d)/g, '.');
  return out;
}

/** A size as its token: `2 x 2 x 1 2/3` → `2x2x1.67`. */
export function sizeToken(text: string): string {
  return text
    .split(/\s*x\s*/)
    .map(dimension)
    .join('x');
}

/** A word's plain form: plural endings folded. Numbers and short words stay as they are. */
export function wordForm(word: string): string {
  return singular(word);
}

function singular(word: string): string {
  // A length in studs, as LEGO (`6M`) and BrickLink (`6L`) write it: the number, as others write it (`Axle 6`).
  if (/^\d+(?:\.\d+)?[lm]$/.test(word)) return word.slice(0, -1);
  if (
    word.length <= 3 ||
    /\d/.test(word) ||
    !word.endsWith('s') ||
    word.endsWith('ss') ||
    word.endsWith('us') ||
    word.endsWith('is')
  )
    return word;
  if (word.endsWith('ies') && word.length > 4) return `${word.slice(0, -3)}y`;
  if (/(?:x|ch|sh)es$/.test(word)) return word.slice(0, -2);
  return word.slice(0, -1);
}

/**
 * Adds the tokens one word of a name reads as to `out`: its plain form, or a gear's teeth (`Z24`) as the
 * number and `tooth`. Into an array the caller keeps: no array per word (index builds read 60,000 names).
 */
function addWordTokens(word: string, out: string[]): void {
  // (Only a word that starts with z is tried: the rest of the words skip the regular expression.)
  const teeth = word.charCodeAt(0) === 122 ? GEAR_TEETH.exec(word) : null;
  if (teeth === null) out.push(wordForm(word));
  else out.push(teeth[1] as string, 'tooth');
}

export function nameTokens(name: string): NameTokens {
  const ascii = PRINTABLE_ASCII.test(name);
  let text = (ascii ? name : name.normalize('NFKC')).toLowerCase();
  // The regular expressions only where they can match: most names have no "w." and many no digit.
  if (text.includes('w.') || text.includes('w/')) text = text.replace(WITHOUT, '$1 without ').replace(WITH, '$1 with ');
  text = foldSigns(text);
  const sizes: string[] = [];
  if (HAS_X_BETWEEN_DIGITS.test(text)) {
    text = text.replace(SIZE, (match) => {
      sizes.push(sizeToken(match));
      return ' ';
    });
  }
  const words: string[] = [];
  // (Printable ASCII, nearly every name, has only a-z and 0-9 for letters and digits: no Unicode tables.)
  for (const m of text.matchAll(ascii ? WORD_ASCII : WORD)) addWordTokens(m[0], words);
  return { words, sizes };
}

/** A token of a name and where it stands in the name (UTF-16 offsets, end exclusive). */
export interface TokenSpan {
  readonly token: string;
  readonly start: number;
  readonly end: number;
}

/**
 * The tokens of `nameTokens` with where each stands in the name, for the screen to highlight the words
 * that matched (sizes as `#1x2`). Names whose lower case changes their length (rare scripts) have none.
 */
export function tokenSpans(name: string): TokenSpan[] {
  let text = name.toLowerCase();
  if (text.length !== name.length) return [];
  text = foldSigns(text);
  // Sizes and "w." / "w/o" first (they are blanked out of the text, so that their words are not read
  // again), in order of position; then the words, merged in among them.
  let special: TokenSpan[] = [];
  const blank = (m: RegExpMatchArray, token: string, skip = 0) => {
    const start = (m.index ?? 0) + skip;
    const end = (m.index ?? 0) + m[0].length;
    special.push({ token, start, end });
    text = text.slice(0, start) + ' '.repeat(end - start) + text.slice(end);
  };
  if (HAS_X_BETWEEN_DIGITS.test(text)) for (const m of text.matchAll(SIZE)) blank(m, `#${sizeToken(m[0])}`);
  if (text.includes('w/')) for (const m of text.matchAll(WITHOUT)) blank(m, 'without', (m[1] ?? '').length);
  if (text.includes('w.') || text.includes('w/'))
    for (const m of text.matchAll(WITH)) blank(m, 'with', (m[1] ?? '').length);
  if (special.length > 1) special = special.sort((a, b) => a.start - b.start);
  const out: TokenSpan[] = [];
  const tokens: string[] = [];
  let k = 0;
  for (const m of text.matchAll(WORD)) {
    while (k < special.length && (special[k] as TokenSpan).start < m.index) out.push(special[k++] as TokenSpan);
    const end = m.index + m[0].length;
    tokens.length = 0;
    addWordTokens(m[0], tokens);
    for (const token of tokens) out.push({ token, start: m.index, end });
  }
  while (k < special.length) out.push(special[k++] as TokenSpan);
  return out;
}

/**
 * The tokens rule 3 compares, distinct: the words, each size as one token (`#1x2`), and each dimension
 * of a size as a number — so that sizes written in other conventions (`Tyre 81.6 x 44` for LDraw's
 * `Tyre 44/ 91 x 43`) still share what they share.
 */
export function closenessTokens(t: NameTokens): string[] {
  // Names have few tokens: a list searched is cheaper than a set, for the 60,000 of an index build.
  const out: string[] = [];
  const add = (tok: string) => {
    if (!out.includes(tok)) out.push(tok);
  };
  for (const w of t.words) add(w);
  for (const size of t.sizes) add(`#${size}`);
  for (const size of t.sizes) for (const d of size.split('x')) add(d);
  return out;
}

/** A size's dimensions as numbers, smallest first: `2x1x0.67` → [0.67, 1, 2]. */
export function dimensionsOf(size: string): number[] {
  return size
    .split('x')
    .map(Number)
    .sort((a, b) => a - b);
}

/**
 * Two dimensions are nearly one when they differ by no more than a naming's rounding: a third of a
 * brick's height (LDraw's `1.333` for Rebrickable's `1`) or 8 % (a wheel's `30.4` for `30`).
 */
function near(x: number, y: number): boolean {
  return Math.abs(x - y) <= Math.max(0.35, 0.08 * Math.max(x, y));
}

/**
 * How two sizes relate: the same dimensions in any order (`1 x 2`, `2 x 1`), nearly the same (each
 * within `near`), one's dimensions among the other's (`2 x 2` of `2 x 2 x 1`, exactly or nearly), or not
 * at all (null: they disagree).
 */
export function sizeRelation(a: readonly number[], b: readonly number[]): 'same' | 'near' | 'part' | null {
  const small = a.length <= b.length ? a : b;
  const big = small === a ? b : a;
  if (small.length === big.length) {
    let same = true;
    for (let i = 0; i < small.length && same; i++) same = small[i] === big[i];
    if (same) return 'same';
  }
  if (!fits(small, big, 0)) return null;
  return small.length === big.length ? 'near' : 'part';
}

/** Whether small[i…] can each be matched, nearly, to a distinct dimension of `big` (sizes have at most four). */
function fits(small: readonly number[], big: readonly number[], i: number, used = 0): boolean {
  if (i === small.length) return true;
  const d = small[i] as number;
  for (let j = 0; j < big.length; j++) {
    if ((used & (1 << j)) === 0 && near(d, big[j] as number) && fits(small, big, i + 1, used | (1 << j))) return true;
  }
  return false;
}
