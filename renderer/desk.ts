import type { LineRowView, PlaceResultView, SuggestionView } from '../src/api/contract.ts';
import { plural } from './format.ts';

/** The order screen's rules that need no screen: what a fix says, and where the keyboard run goes on. */

/** What a line is placed on by hand: a suggestion, a search result, or the item a line unplaced for its colour has. */
export type PlaceTarget = Pick<SuggestionView, 'type' | 'no'> & { readonly name: string | null };

/** What a hand placement did, in a shop worker's words: the line, and the other lines it placed or moved. */
export function placedMessage(r: PlaceResultView, s: PlaceTarget): string {
  const l = r.line;
  const colour = l.placed?.colourName ? ` in ${l.placed.colourName}` : '';
  const given = l.given.no ?? (l.given.name ? `“${l.given.name}”` : 'the same');
  const more = [
    r.others.placed > 0 ? `${plural(r.others.placed, 'more line')} giving ${given}` : '',
    r.others.moved > 0 ? `moved ${plural(r.others.moved, 'line')} the old memory had placed` : '',
  ].filter(Boolean);
  const where =
    r.othersIn.length === 0 ? '' : ` (in ${r.othersIn.length === 1 ? 'order' : 'orders'} ${r.othersIn.join(', ')})`;
  const rest = more.length > 0 ? `, and ${more.join(', and ')}${where}, each in its own colour` : '';
  const still = r.others.unplaced > 0 ? ` ${plural(r.others.unplaced, 'other line')} giving it stay unplaced.` : '';
  const taught =
    r.remembered.name === 'added' && l.given.name ? ` Suggestions now find it by “${l.given.name}” too.` : '';
  const named = s.name ? ` (${s.name})` : '';
  return `Placed line ${l.position} on ${s.type} ${s.no}${named}${colour}${rest}.${still}${taught}`;
}

/**
 * The line to go on to after a placement: the next unplaced line below the one just placed, wrapping
 * at the end (SPEC §9). `before` is the list as it was, so the order of lines is known even when the
 * placed line has left the list (the "unplaced only" filter).
 */
export function nextUnplacedAfter(
  before: readonly LineRowView[],
  after: readonly LineRowView[],
  placedId: number,
): number | null {
  const now = new Map(after.map((l) => [l.id, l]));
  const from = before.findIndex((l) => l.id === placedId);
  for (let k = 1; k <= before.length; k++) {
    const candidate = before[(from + k) % before.length];
    if (candidate && candidate.id !== placedId && now.get(candidate.id)?.placed === null) return candidate.id;
  }
  return null;
}

/**
 * A suggestion's name in pieces, the words that matched the line marked (SPEC §7: the screen shows
 * which words matched). Overlapping or out-of-range marks are clipped, never thrown on.
 */
export function markedPieces(
  name: string,
  marks: readonly (readonly [number, number])[],
): { text: string; marked: boolean }[] {
  const pieces: { text: string; marked: boolean }[] = [];
  let at = 0;
  for (const [from, to] of [...marks].sort((a, b) => a[0] - b[0])) {
    const start = Math.max(at, Math.min(from, name.length));
    const end = Math.max(start, Math.min(to, name.length));
    if (start > at) pieces.push({ text: name.slice(at, start), marked: false });
    if (end > start) pieces.push({ text: name.slice(start, end), marked: true });
    at = Math.max(at, end);
  }
  if (at < name.length) pieces.push({ text: name.slice(at), marked: false });
  return pieces;
}
