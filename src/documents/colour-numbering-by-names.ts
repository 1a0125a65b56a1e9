import { COLOUR_NUMBERINGS, type ColourNumbering } from '../vocabulary/reading.ts';
import { listedColour, type ColourReader } from './colour-reader.ts';
import type { ParsedLine } from './model.ts';

/**
 * "Clearly most" (SPEC §8): the share of the lines whose number and name are both in a table that the
 * numbering read must agree with; and, against each other numbering, its share of the lines that tell the
 * two apart (where one of them agrees and the other does not).
 */
export const CLEAR_SHARE = 0.9;

/** One line's colour as the tables read it: its name's colour, and its number's in each numbering. */
interface Answers {
  readonly name: number | null;
  readonly number: Readonly<Record<ColourNumbering, number | null | undefined>>;
}

/**
 * Whose colour numbers a list gives, when its column's title does not say but the colour names beside
 * them do (SPEC §8 `how: names`): 57 "Trans Orange", 0 "Black", 272 "Dark Blue" are LDraw's. Read from
 * the lines whose number and name are both in a table (a number no table has is no evidence either way):
 * the one numbering that agrees with at least CLEAR_SHARE of them, and is well ahead of each other one.
 * Null when no numbering is that clear: the reader's guess stands, and is said.
 */
export function colourNumberingByNames(lines: readonly ParsedLine[], reader: ColourReader): ColourNumbering | null {
  const all = lines.flatMap((line): Answers[] => {
    const listed = listedColour(line);
    if (listed === null) return [];
    const name = listed.name === null || listed.name.trim() === '' ? null : (reader.ofName(listed.name)?.id ?? null);
    const number = Object.fromEntries(COLOUR_NUMBERINGS.map((n) => [n, reader.ofNumber(n, listed.number)]));
    return [{ name, number: number as Answers['number'] }];
  });
  // Only numberings whose table is loaded are asked; a line counts where some table has its number.
  const asked = COLOUR_NUMBERINGS.filter((n) => all.some((a) => a.number[n] !== undefined));
  const evidence = all.filter(
    (a) => a.name !== null && asked.some((n) => a.number[n] !== null && a.number[n] !== undefined),
  );
  if (evidence.length === 0) return null;
  const agreeing = (n: ColourNumbering) => evidence.filter((a) => a.number[n] === a.name).length;
  const best = asked.reduce((b, n) => (agreeing(n) > agreeing(b) ? n : b));
  if (agreeing(best) < CLEAR_SHARE * evidence.length) return null;
  return asked.every((other) => other === best || wellAhead(all, best, other)) ? best : null;
}

/**
 * Whether `best` is well ahead of `other`: of the lines whose names tell the two apart, it agrees with at
 * least CLEAR_SHARE. Where no name tells them apart, only if they read every line of the list alike (then
 * either is the same list).
 */
function wellAhead(all: readonly Answers[], best: ColourNumbering, other: ColourNumbering): boolean {
  let forBest = 0;
  let forOther = 0;
  for (const a of all) {
    if (a.name === null || a.number[best] === a.number[other]) continue;
    if (a.number[best] === a.name) forBest += 1;
    else if (a.number[other] === a.name) forOther += 1;
  }
  if (forBest + forOther === 0) return all.every((a) => a.number[best] === a.number[other]);
  return forBest >= CLEAR_SHARE * (forBest + forOther);
}
