/**
 * How the placement rule (SPEC §6) finds a line's item, step by step. A number is read in the document's
 * numbering together with its colour: the same text is the item only where the document and the catalogue
 * speak one numbering, or where no table says the number (in that colour) is another item; a memory holds
 * an item for what staff taught, in the colours that item is made in; an element id beside a number that
 * disagrees with it decides, saying so.
 */
import type { ItemType } from '../vocabulary/item-types.ts';
import { NUMBERING_NAMES, type Numbering } from '../vocabulary/numberings.ts';
import { UNPLACED_REASONS, type UnplacedReason } from '../vocabulary/reasons.ts';
import { elementIdBeside, ldrawBeside } from './remarks.ts';
import type { ElementMatch, InColour, ItemRef, Memory, PlacedBy, PlacementLookup } from './rule.ts';

/** A line as the steps read it: trimmed, typed, its name folded, its colour checked. */
export interface LineToFind {
  readonly type: ItemType;
  readonly no: string | null;
  readonly name: string | null;
  readonly nameKey: string | null;
  /** The numbering its document's numbers are in; null: not known (any). */
  readonly numbering: Numbering | null;
  /** The catalogue colour the line is in (its own, or the one staff chose for it); null: none to go by. */
  readonly colourId: number | null;
  readonly remarks: string | null;
}

export type Found =
  | {
      readonly kind: 'found';
      readonly item: ItemRef;
      readonly by: PlacedBy;
      readonly via?: string;
      /** Found as a LEGO element: it brings its colour. */
      readonly element?: ElementMatch;
      /** The element is the line's own number (a list of element ids), not one beside it. */
      readonly elementIsTheNumber?: boolean;
    }
  | {
      readonly kind: 'unplaced';
      readonly reason: UnplacedReason;
      readonly found?: ItemRef;
      /** Several items the tables give (SPEC §6 step 3): not placed, they lead the suggestions. */
      readonly candidates?: readonly Candidate[];
    };

/** An item the tables give for a line they can't settle, and which table: the element tables, or another numbering's. */
export interface Candidate {
  readonly item: ItemRef;
  readonly how: 'element' | 'numbering';
}

/** Step 3's answer: an item, several candidates (unplaced; they lead the suggestions), or none. */
type Answer =
  | Extract<Found, { kind: 'found' }>
  | { readonly kind: 'several'; readonly candidates: readonly Candidate[] }
  | { readonly kind: 'none' };

const NONE: Answer = { kind: 'none' };
const NOTHING_IN_COLOUR: InColour = { items: [], listed: false };

const found = (item: ItemRef, by: PlacedBy, via?: string): Answer =>
  via === undefined ? { kind: 'found', item, by } : { kind: 'found', item, by, via };

const sameNo = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
const sameItem = (a: ItemRef, b: ItemRef) => a.type === b.type && sameNo(a.no, b.no);

/** The steps of SPEC §6, in order; then an element id beside the number has its say. */
export function findItem(line: LineToFind, lookup: PlacementLookup): Found {
  const answer = numberOrName(line, lookup);
  const beside = elementIdBeside(line.remarks);
  const withElement = beside === null || beside === line.no ? answer : besideTheNumber(line, beside, answer, lookup);
  if (withElement.kind === 'found' || withElement.kind === 'unplaced') return withElement;
  return nameOrReason(line, withElement.kind === 'several' ? withElement.candidates : null, lookup);
}

/** Steps 1 to 3: the number in its numbering, a memory, another numbering; a memory may refuse the line. */
function numberOrName(line: LineToFind, lookup: PlacementLookup): Answer | Extract<Found, { kind: 'unplaced' }> {
  const { type, no } = line;
  // An LDraw model's part (`LDraw part 3001` beside it): the cross-references' LDraw ids first.
  const ldraw = ldrawPart(line, lookup);
  if (ldraw !== null) return ldraw;
  // 1. The number the catalogue has, where the document speaks the catalogue's numbering.
  const same = no === null ? null : lookup.catalogueItem(type, no);
  const across =
    same !== null && line.numbering !== null && same.numbering !== null && same.numbering !== line.numbering;
  if (same !== null && !across) return found(same.item, 'number');
  const inColour = colourAnswer(line, lookup);
  // 2. A remembered hand placement: the item staff taught, in the colours it is made in.
  const memory = lookup.remembered(type, no, no === null ? line.nameKey : null);
  if (memory !== null) {
    const verdict = memoryVerdict(memory, line, inColour, lookup);
    if (verdict === 'use') return found(memory.item, 'remembered', rememberedVia(line, memory, lookup));
    if (verdict === 'refuse') return { kind: 'unplaced', reason: UNPLACED_REASONS.rememberedNotInColour };
  }
  // 3. Another numbering: the number in its colour, an element id, the number alone.
  const other = type === 'P' && no !== null ? otherNumbering(line, no, inColour, lookup) : NONE;
  if (other.kind !== 'none' || same === null || same.numbering === null) return other;
  // 1, again: the same text across numberings, where no table says otherwise — said so.
  return found(same.item, 'number', `same number in ${NUMBERING_NAMES[same.numbering]}'s numbering`);
}

/** A line of an LDraw model: the one part its LDraw id is (named when that is another number), else null. */
function ldrawPart(line: LineToFind, lookup: PlacementLookup): Answer | null {
  const { no } = line;
  if (line.type !== 'P' || no === null || ldrawBeside(line.remarks) !== no) return null;
  const byLdraw = lookup.ldrawParts(no);
  // Several: the number decides, as any number.
  if (byLdraw.length !== 1 || byLdraw[0] === undefined) return null;
  const part = byLdraw[0];
  return found(part.item, 'number', sameNo(part.item.no, no) ? undefined : part.via);
}

/** What the element tables say of the line's number in its colour (SPEC §6 step 3), where both are known. */
function colourAnswer(line: LineToFind, lookup: PlacementLookup): InColour {
  const { no, colourId, numbering } = line;
  if (line.type !== 'P' || no === null || colourId === null) return NOTHING_IN_COLOUR;
  if (numbering !== 'bricklink' && numbering !== 'rebrickable') return NOTHING_IN_COLOUR;
  return lookup.inColour(numbering, no, colourId);
}

/**
 * Whether a memory places the line (SPEC §6 step 2): always in the colour it was taught in; in another
 * colour only where step 3 has no answer for that colour and the element tables make the item in it (or
 * say nothing of its colours) — else it refuses the line, which then names the memory and the colour.
 */
function memoryVerdict(
  memory: Memory,
  line: LineToFind,
  inColour: InColour,
  lookup: PlacementLookup,
): 'use' | 'yield' | 'refuse' {
  const colour = line.colourId;
  if (memory.taught !== null && memory.taught.colourId === colour) return 'use';
  // A line without a colour to go by: nothing to check the item's colours against.
  if (colour === null) return 'use';
  // The tables translate this number in this colour: that, not a memory taught in another colour.
  if (inColour.items.length > 0) return 'yield';
  const made = lookup.madeIn(memory.item);
  return made === null || made.includes(colour) ? 'use' : 'refuse';
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** "7 Dec 2026" of an ISO time (UTC), or the text as it is when it is none. */
function day(iso: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(iso);
  if (m === null) return iso;
  return `${Number(m[3])} ${MONTHS[Number(m[2]) - 1] ?? m[2]} ${m[1]}`;
}

/** `remembered — 970c00 in Sand Blue → 970c24, desk "front", 7 Dec 2026`: a memory's placement, said so. */
export function rememberedVia(
  line: Pick<LineToFind, 'no' | 'name'>,
  memory: Memory,
  lookup: Pick<PlacementLookup, 'colourName'>,
): string {
  const given = line.no ?? `"${line.name ?? ''}"`;
  const taught = memory.taught;
  const colour =
    taught === null || taught.colourId === null
      ? ''
      : ` in ${lookup.colourName(taught.colourId) ?? `colour ${taught.colourId}`}`;
  const by = taught === null ? '' : `, desk "${taught.desk}"`;
  return `remembered — ${given}${colour} → ${memory.item.no}${by}, ${day(taught?.at ?? memory.at)}`;
}

/** Step 3 for a part: its number in its colour, then as a LEGO element id, then the number alone. */
function otherNumbering(line: LineToFind, no: string, inColour: InColour, lookup: PlacementLookup): Answer {
  if (inColour.items.length > 1) return severalOrSame(inColour.items, no, 'element');
  const one = inColour.items[0];
  if (one !== undefined && line.colourId !== null) {
    const from = line.numbering === null ? '' : `${NUMBERING_NAMES[line.numbering]} `;
    const to = lookup.catalogueItem(one.item.type, one.item.no)?.numbering;
    const colour = lookup.colourName(line.colourId) ?? `colour ${line.colourId}`;
    const via = `${from}${no} in ${colour} = ${to ? `${NUMBERING_NAMES[to]} ` : ''}${one.item.no} (element ${one.element})`;
    return found(one.item, 'number', sameNo(one.item.no, no) ? undefined : via);
  }
  // A list of LEGO element ids: the number is one, an item in a colour.
  const elements = distinctItems(lookup.elementOf(no));
  const element = elements[0];
  if (elements.length > 1) return several(elements, 'element');
  if (element !== undefined)
    return {
      kind: 'found',
      item: element.item,
      by: 'number',
      via: `element ${no}${assumedWords(element)}`,
      element,
      elementIsTheNumber: true,
    };
  const translations = lookup.translationsOf(no, line.numbering);
  const translation = translations[0];
  if (translations.length > 1) return severalOrSame(translations, no, 'numbering');
  if (translation === undefined) return NONE;
  return found(translation.item, 'number', sameNo(translation.item.no, no) ? undefined : translation.via);
}

/**
 * Several candidates (SPEC §6 step 3: unplaced, they lead the suggestions) — unless the number itself is
 * one of them: a table says it is the same item, and the others are the ambiguity of the other numbering
 * (LDraw's one `3001.dat` for Rebrickable's `3001` and its variants).
 */
function severalOrSame(candidates: readonly { readonly item: ItemRef }[], no: string, how: Candidate['how']): Answer {
  const same = candidates.find((c) => sameNo(c.item.no, no));
  return same === undefined ? several(candidates, how) : found(same.item, 'number');
}

/** Several candidates, each item once. */
function several(candidates: readonly { readonly item: ItemRef }[], how: Candidate['how']): Answer {
  const items = new Map(candidates.map((c) => [`${c.item.type} ${c.item.no.toLowerCase()}`, c.item]));
  return { kind: 'several', candidates: [...items.values()].map((item) => ({ item, how })) };
}

/**
 * An element id given beside the number (SPEC §6 step 3): where the number found nothing, it places the
 * line; where the two disagree on the item or the colour, the element decides when the tables give it as
 * one item and colour (its `via` names both), else the line is unplaced naming the conflict.
 */
function besideTheNumber(
  line: LineToFind,
  beside: string,
  answer: Answer | Extract<Found, { kind: 'unplaced' }>,
  lookup: PlacementLookup,
): Answer | Extract<Found, { kind: 'unplaced' }> {
  const elements = distinctItems(lookup.elementOf(beside));
  if (elements.length === 0) return answer;
  const one = elements.length === 1 ? elements[0] : undefined;
  if (answer.kind !== 'found') {
    if (answer.kind === 'unplaced' && answer.reason === UNPLACED_REASONS.rememberedNotInColour && one === undefined)
      return answer;
    if (one === undefined) return several(elements, 'element');
    // The number found nothing: the element places it, naming the line's colour only where it disagrees.
    return {
      kind: 'found',
      item: one.item,
      by: 'number',
      via: elementVia(line, beside, one, lookup, false),
      element: one,
    };
  }
  const agrees = (e: ElementMatch) =>
    sameItem(e.item, answer.item) && (e.colourId === null || line.colourId === null || e.colourId === line.colourId);
  if (elements.some(agrees)) return answer;
  if (one === undefined) return { kind: 'unplaced', reason: UNPLACED_REASONS.elementConflict };
  return {
    kind: 'found',
    item: one.item,
    by: 'number',
    via: elementVia(line, beside, one, lookup, true),
    element: one,
  };
}

/**
 * `element 4275401`, and where the line said another item (`itemDisagrees`: its number found one) or
 * colour, both: `element 4275401 = 973c03h01pr1188 in Black; the line said 973pb431c01 in Tan`.
 */
function elementVia(
  line: LineToFind,
  id: string,
  e: ElementMatch,
  lookup: PlacementLookup,
  itemDisagrees: boolean,
): string {
  const colourWords = (c: number | null) => (c === null ? '' : ` in ${lookup.colourName(c) ?? `colour ${c}`}`);
  const sameColour = e.colourId === null || line.colourId === null || e.colourId === line.colourId;
  if (!itemDisagrees && sameColour) return `element ${id}${assumedWords(e)}`;
  const said = `${line.no ?? (line.name === null ? 'no number' : `"${line.name}"`)}${colourWords(line.colourId)}`;
  return `element ${id} = ${e.item.no}${colourWords(e.colourId)}${assumedWords(e)}; the line said ${said}`;
}

/** " (same number in Rebrickable's numbering)", where the element's number was taken as the catalogue's. */
function assumedWords(e: ElementMatch): string {
  return e.sameNumberIn === undefined ? '' : ` (same number in ${NUMBERING_NAMES[e.sameNumberIn]}'s numbering)`;
}

/** Step 4, a unique name; else the first reason that fits (SPEC §6), with the tables' candidates (`byTable`). */
function nameOrReason(line: LineToFind, byTable: readonly Candidate[] | null, lookup: PlacementLookup): Found {
  const unplaced = (reason: UnplacedReason): Found =>
    byTable === null ? { kind: 'unplaced', reason } : { kind: 'unplaced', reason, candidates: byTable };
  if (byTable === null && line.nameKey !== null) {
    const named = lookup.itemsNamed(line.type, line.nameKey);
    if (named.length === 1 && named[0] !== undefined) return { kind: 'found', item: named[0], by: 'name' };
    if (named.length > 1) return { kind: 'unplaced', reason: UNPLACED_REASONS.nameSeveral };
  }
  if (elementIdBeside(line.remarks) !== null) return unplaced(UNPLACED_REASONS.elementNotKnown);
  if (line.no !== null) return unplaced(numberNotInCatalogue(line.numbering));
  return unplaced(UNPLACED_REASONS.nameNotInCatalogue);
}

/** "The BrickLink number is not in the catalogue", in the words of the document's numbering (SPEC §6). */
export function numberNotInCatalogue(numbering: Numbering | null): UnplacedReason {
  if (numbering === 'rebrickable') return UNPLACED_REASONS.rebrickableNumberNotInCatalogue;
  if (numbering === 'ldraw') return UNPLACED_REASONS.ldrawNumberNotInCatalogue;
  return UNPLACED_REASONS.numberNotInCatalogue;
}

/** Element matches that name one item and colour once; two different ones are several candidates. */
export function distinctItems(matches: readonly ElementMatch[]): ElementMatch[] {
  const seen = new Map<string, ElementMatch>();
  for (const m of matches) seen.set(`${m.item.type}\u0000${m.item.no.toLowerCase()}\u0000${m.colourId}`, m);
  return [...seen.values()];
}
