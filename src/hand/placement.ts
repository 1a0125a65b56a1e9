import { elementColourFor, elementIdBeside } from '../placement/rule.ts';
import type { StoreDb } from '../store/db.ts';
import { isoNow, type Clock } from '../platform/clock.ts';
import { BrickWorkError, quote } from '../vocabulary/errors.ts';
import { UNPLACED_REASONS } from '../vocabulary/reasons.ts';
import { DEFAULT_ITEM_TYPE, isItemType, ITEM_TYPE_ONE, type ItemType } from '../vocabulary/item-types.ts';
import type { PlacementConfirmation } from '../vocabulary/confirmations.ts';
import {
  getLine,
  linePlacementNow,
  replaceLinePlacement,
  type LineView,
  type LinePlacementNow,
} from '../store/lines.ts';
import { catalogueGeneration } from '../store/settings.ts';
import { colourName } from '../store/colours.ts';
import { findColourMemory, findItemMemory, findTaughtName } from '../store/memories.ts';
import {
  linesGivingColourId,
  linesGivingNumber,
  linesGivingOnlyColourName,
  linesGivingOnlyName,
  type HandCandidate,
} from '../store/hand-candidates.ts';
import { memoryRow, type MemoryTable } from '../store/hand-memories.ts';
import { catalogueItemKey } from '../store/lookup.ts';
import type { WriteSession } from '../store/session.ts';
import { deskWords, lastStepTouching, recordStepWithInfo, type StepInfo } from '../undo/history.ts';
import type { StepRecorder } from '../undo/recorder.ts';
import { catalogueLookup } from '../placement/catalogue-lookup.ts';
import { foldName } from '../placement/fold.ts';
import {
  checkColour,
  colourOf,
  placeItem,
  placementColumns,
  unchanged,
  type ColourCheck,
  type ColourKey,
  type GivenItem,
  type PlacementLookup,
} from '../placement/rule.ts';

/** What a memory write did: made a new one, changed the one there was, or found it already so. */
export type MemoryChange = 'added' | 'changed' | 'kept';

export interface HandPlacementResult {
  readonly line: LineView;
  /** The undo step it wrote: Undo now names it. */
  readonly step: StepInfo;
  readonly remembered: {
    /** The item remembered for the line's given number (or name); null when nothing was remembered (see `itemNote`). */
    readonly item: MemoryChange | null;
    /** The colour remembered for the line's given colour, which the catalogue does not know; null when none. */
    readonly colour: MemoryChange | null;
    /** The line's given name, taught to the item as an extra name for suggestions; null when it gives none or the item has that name. */
    readonly name: MemoryChange | null;
  };
  /**
   * The other saved lines it placed at once (SPEC §8): unplaced lines giving the same number, name or
   * unknown colour that are now placed, lines a replaced memory had placed that moved, and lines it
   * looked at again that are still (or now) unplaced. Each keeps its own colour.
   */
  readonly others: { readonly placed: number; readonly moved: number; readonly unplaced: number };
  /** The orders those other lines are in (their references), each once. */
  readonly othersIn: readonly string[];
}

interface GivenKey {
  readonly type: string;
  readonly no: string | null;
  readonly nameKey: string | null;
}

function givenKey(given: GivenItem): GivenKey {
  const type = given.type?.trim().toUpperCase() || DEFAULT_ITEM_TYPE;
  const no = given.no?.trim() || null;
  const nameKey = no === null && given.name?.trim() ? foldName(given.name) : null;
  return { type, no, nameKey };
}

/** A saved line a memory may place at once. */
type Candidate = HandCandidate;

/**
 * The saved lines a memory may place at once: unplaced lines, and lines a memory placed, that give the
 * same number (or, without a number, the same folded name); for a colour, the lines giving that same
 * unknown colour. Lines placed by hand are never touched.
 */
function linesFor(db: StoreDb, except: number, item: GivenKey | null, colour: ColourKey | null): Candidate[] {
  const found = new Map<number, Candidate>();
  const add = (rows: Candidate[]) => rows.forEach((r) => found.set(r.id, r));
  if (item?.no != null) {
    add(linesGivingNumber(db, except, item.type, item.no));
  } else if (item?.nameKey != null) {
    const rows = linesGivingOnlyName(db, except, item.type);
    add(rows.filter((r) => r.name !== null && foldName(r.name) === item.nameKey));
  }
  if (colour?.numbering === 'bricklink-id') {
    add(linesGivingColourId(db, except, colour.id));
  } else if (colour?.numbering === 'name') {
    const rows = linesGivingOnlyColourName(db, except);
    add(rows.filter((r) => r.colourName !== null && foldName(r.colourName) === colour.key));
  }
  return [...found.values()];
}

/**
 * Who last changed a row through the history, in words (`otherwise`: what else can have changed it), as
 * `session`'s desk says it.
 */
function changedBy(session: WriteSession, table: string, rowId: number, otherwise: string): string {
  const step = lastStepTouching(session.db, table, rowId);
  if (step === null) return otherwise;
  const desk = step.desk === session.desk ? 'another window of this desk' : deskWords(step.desk);
  return `${desk} ("${step.label}", step ${step.id})`;
}

/**
 * A hand placement names the line's placement the desk showed (SPEC §14): when another desk, another
 * window or a catalogue load changed it since, it is refused (`line-changed`) naming who, nothing written.
 */
function refuseIfChanged(
  session: WriteSession,
  line: LineView,
  now: LinePlacementNow['columns'],
  seen: { readonly type: string; readonly no: string; readonly colourId: number | null } | null,
): void {
  const same =
    seen === null
      ? now.item_no === null
      : now.item_no !== null &&
        now.item_type === seen.type.trim().toUpperCase() &&
        now.item_no.toLowerCase() === seen.no.trim().toLowerCase() &&
        now.colour_id === seen.colourId;
  if (same) return;
  const who = changedBy(session, 'order_line', line.id, 'the catalogue (a load or a look-up placed it again)');
  const colour = now.colour_id === null ? null : (colourName(session.db, now.colour_id) ?? `colour ${now.colour_id}`);
  const shown =
    now.item_no === null
      ? 'it is unplaced now'
      : `it is on ${now.item_type ?? ''} ${now.item_no}${colour !== null ? ` in ${colour}` : ''} now`;
  throw new BrickWorkError(
    'line-changed',
    `Line ${line.position} was changed since this desk showed it, by ${who}: ${shown}. Nothing was changed; look at the line as it is now and place it again if it is still wrong.`,
  );
}

/**
 * What placing a line on an item reads of the catalogue alone (no shop data), read before the step's
 * writer lock: on a server store each read is a round trip, and the other desks wait on the lock for
 * every one made holding it. The catalogue's generation is read first, so the facts are at least that
 * new; the step reads it again under the lock and reads the facts again if a load came between.
 */
interface CatalogueFacts {
  readonly generation: number;
  /** The line's given colour checked; null when the check needs the colour memory (shop data: read under the lock). */
  readonly own: ColourCheck | null;
  /** Whether the catalogue has the line's given number in its numbering (then no memory is made: §6, number first). */
  readonly givenNumberKnown: boolean;
  /** The item's own folded name (a given name that differs is taught), undefined when not in the catalogue. */
  readonly itemNameKey: string | undefined;
  /** Colour names the label may need, by id. */
  readonly colourNames: ReadonlyMap<number, string | null>;
}

function catalogueFacts(
  db: StoreDb,
  line: LineView,
  item: { type: string; no: string },
  colourId: number | null,
  generation: number,
  /** The item's folded name, when already read (`catalogueItemKey`). */
  nameKey?: string,
): CatalogueFacts {
  const lookup = catalogueLookup(db);
  const check = checkColour(line.given, lookup);
  const own = check.status === 'unknown' ? null : check;
  const key = givenKey(line.given);
  // The number places the line by itself only in the document's own numbering (§6 step 1): across
  // numberings, a memory comes first and is worth making.
  const same = key.no !== null && isItemType(key.type) ? lookup.catalogueItem(key.type, key.no) : null;
  const numbering = line.given.numbering ?? null;
  const givenNumberKnown =
    same !== null && (numbering === null || same.numbering === null || same.numbering === numbering);
  const itemNameKey = nameKey ?? catalogueItemKey(db, item.type, item.no)?.nameKey;
  const colourNames = new Map<number, string | null>();
  for (const id of [colourId, own === null ? null : colourOf(own)])
    if (id !== null && !colourNames.has(id)) colourNames.set(id, colourName(db, id));
  return { generation, own, givenNumberKnown, itemNameKey, colourNames };
}

/** A memory forgotten names what it gave as the desk showed it (SPEC §14): changed since, `line-changed`. */
function refuseIfMemoryChanged(
  session: WriteSession,
  table: MemoryTable,
  id: number,
  what: string,
  seen: { readonly type?: string; readonly no?: string; readonly colourId?: number },
): void {
  const row = memoryRow(session.db, table, id);
  const gives =
    row === undefined
      ? null
      : seen.colourId !== undefined
        ? String(row['colour_id'])
        : `${String(row['item_type'])} ${String(row['item_no'])}`;
  const shown = seen.colourId !== undefined ? String(seen.colourId) : `${seen.type ?? ''} ${seen.no ?? ''}`;
  if (gives !== null && gives.toLowerCase() === shown.toLowerCase()) return;
  const who = changedBy(session, table, id, 'another desk');
  throw new BrickWorkError(
    'line-changed',
    `${what.charAt(0).toUpperCase()}${what.slice(1)} was changed since this desk showed it, by ${who}: ${gives === null ? 'it is forgotten already' : `it gives ${seen.colourId !== undefined ? `colour ${gives}` : gives} now`}. Nothing was changed; look at it as it is now.`,
  );
}

function describeGiven(line: LineView): string {
  const g = line.given;
  return quote(g.no ?? g.name ?? `line ${line.position}`);
}

/** A hand placement asked for: the line, the item (as the catalogue spells it) and colour, and what staff confirmed. */
interface Placing {
  readonly session: WriteSession;
  readonly db: StoreDb;
  readonly lineId: number;
  readonly line: LineView;
  readonly type: ItemType;
  readonly no: string;
  /** The colour chosen, or null to keep the line's own. */
  readonly colourId: number | null;
  readonly clock: Clock;
  readonly confirmed: readonly PlacementConfirmation[];
  /** The line's placement as the desk showed it (null: unplaced); undefined: whatever it is now. */
  readonly seen: { readonly type: string; readonly no: string; readonly colourId: number | null } | null | undefined;
}

/**
 * Fixing by hand (SPEC §8): staff place a line (unplaced, or wrongly placed) on a catalogue item,
 * optionally with a colour. One undo step, which also:
 * - remembers the item (never the colour) for the line's given number — or, without a number, its
 *   folded name — unless the catalogue already places that number itself;
 * - remembers the chosen colour for the line's given colour when the catalogue does not know that
 *   colour (a colour placement); a colour chosen for a line whose own colour is known, or that gives
 *   none, is for that line only;
 * - places at once the other saved lines those memories now place, each in its own colour.
 *
 * Without a chosen colour the line keeps its own (or the colour placement of its unknown colour); a line
 * whose own colour the catalogue does not know needs one chosen (`needs-colour`).
 */
export function placeByHand(
  session: WriteSession,
  lineId: number,
  target: { type: string; no: string; colourId: number | null },
  clock: Clock,
  confirmed: readonly PlacementConfirmation[] = [],
  /** The line's placement as the desk showed it (null: unplaced); undefined: whatever it is now. */
  seen?: { readonly type: string; readonly no: string; readonly colourId: number | null } | null,
): HandPlacementResult {
  const { db } = session;
  const type = target.type.trim().toUpperCase();
  if (!isItemType(type))
    throw new BrickWorkError(
      'invalid-argument',
      `"${quote(target.type)}" is not a BrickLink item type (P, S, M, B, G, C, I, O).`,
    );
  // First: the catalogue facts read after it are at least this new (see CatalogueFacts).
  const generation = catalogueGeneration(db);
  const item = catalogueItemKey(db, type, target.no.trim());
  if (item === undefined) throw new BrickWorkError('not-found', `${type} ${quote(target.no)} is not in the catalogue.`);
  const no = item.no;
  const lookup = catalogueLookup(db);
  if (target.colourId !== null && lookup.coloursLoaded() && !lookup.hasColour(target.colourId)) {
    throw new BrickWorkError('not-found', `Colour ${target.colourId} is not in the catalogue.`);
  }
  const line = getLine(db, lineId);
  const givenType = givenKey(line.given).type;
  if (givenType !== type && isItemType(givenType) && !confirmed.includes('other-type')) {
    throw new BrickWorkError(
      'needs-acknowledgement',
      `Line ${line.position} gives ${ITEM_TYPE_ONE[givenType]} (${givenType} ${quote(line.given.no ?? line.given.name ?? '')}) and ` +
        `${type} ${no} is ${ITEM_TYPE_ONE[type]}: confirm to place it there anyway. Its name will not be taught to ${type} ${no}.`,
      'other-type',
    );
  }
  const first = catalogueFacts(db, line, { type, no }, target.colourId, generation, item.nameKey);
  const placing: Placing = { session, db, lineId, line, type, no, colourId: target.colourId, clock, confirmed, seen };
  let made: ReturnType<typeof handStep>;
  try {
    made = handStep(placing, first, true);
  } catch (e) {
    if (!(e instanceof CatalogueMoved)) throw e;
    made = handStep(placing, first, false);
  }
  const { value, step: written } = made;
  return { line: getLine(db, lineId), step: written, ...value };
}

/**
 * The step. `swap`: on a server, the line is written (its old values given back) with the memory's
 * write and the read of the lines it places too — one round trip holding the writer lock, which the
 * other desks wait out — while the catalogue is as `first` was read; a load that came between rolls it
 * back (CatalogueMoved), and the step is made again the other way: the line read first under the lock
 * and the facts again, as on SQLite, where a read and a write cost no round trips.
 */
function handStep(p: Placing, first: CatalogueFacts, swap: boolean) {
  const { session, db, lineId, line, type, no, clock } = p;
  return recordStepWithInfo(session, clock, (rec) => {
    const { facts, own, colourId, swapped } = writeLine(p, rec, first, swap);

    const key = givenKey(line.given);
    const givenType = isItemType(key.type) ? key.type : null;
    // The rule looks for a memory only for a known type, and only when the catalogue lacks the given
    // number (§6: number first): a memory would never be used otherwise, so none is made.
    const useful = givenType !== null && (key.no !== null ? !facts.givenNumberKnown : key.nameKey !== null);
    const remembering = useful ? rememberItem(session, rec, key, { type, no }, colourId, clock) : null;
    const colour =
      own.status === 'unknown' && p.colourId !== null ? rememberColour(db, rec, own.key, p.colourId, clock) : null;
    // A name is taught only from a placement of the same type: a minifig's description is no part's name.
    const name =
      givenType === type ? teachName(db, rec, line.given.name, { type, no }, facts.itemNameKey, clock) : null;

    // This read takes the writes above with it (a server store): then their answers are in.
    const candidates =
      remembering !== null || colour !== null
        ? linesFor(
            db,
            lineId,
            remembering === null ? null : key,
            colour === null ? null : own.status === 'unknown' ? own.key : null,
          )
        : [];
    swapped();
    const item = remembering === null ? null : remembering();
    const { others, othersIn, displaced } = placeOthers(db, rec, candidates);
    if (displaced.length > 0 && !p.confirmed.includes('moves-lines')) {
      // Thrown inside the step: everything above is rolled back.
      throw new BrickWorkError(
        'needs-acknowledgement',
        displacedMessage(line, displaced, `${type} ${no}`),
        'moves-lines',
      );
    }
    return {
      value: {
        remembered: { item, colour, name },
        others,
        othersIn: [...othersIn].sort((a, b) => a.localeCompare(b)),
      },
      kind: 'hand-placement',
      label: stepLabel(db, p, facts, colourId),
    };
  });
}

/** The line's columns placed by hand on the item, in `colourId`. */
function handColumns(p: Placing, colourId: number | null) {
  return { item_type: p.type, item_no: p.no, colour_id: colourId, placed_by: 'hand', unplaced_reason: null };
}

/**
 * Writes the line's own placement in the step: swapped (its old values read with the step's next
 * round trip: `swapped`), or read first and the catalogue facts read again if a load came between.
 */
function writeLine(p: Placing, rec: StepRecorder, first: CatalogueFacts, swap: boolean) {
  const { db, lineId, line } = p;
  let facts = first;
  // Read inside the write transaction: what another process wrote meanwhile counts.
  const inTransaction = catalogueLookup(db);
  let { own, colourId } = colourFor(p, facts, inTransaction);
  const swapping = swap ? replaceLinePlacement(db, lineId, handColumns(p, colourId), facts.generation) : null;
  /** The swap's answer, once it came: refused (the write is rolled back) or recorded. */
  const swapped = () => {
    if (swapping === null) return;
    const old = swapping();
    if (old === null) throw new CatalogueMoved();
    if (p.seen !== undefined) refuseIfChanged(p.session, line, old, p.seen);
    rec.updated('order_line', lineId, old, handColumns(p, colourId));
  };
  if (swapping === null) {
    const now = linePlacementNow(db, lineId);
    if (now.catalogueGeneration !== facts.generation) {
      facts = catalogueFacts(db, line, { type: p.type, no: p.no }, p.colourId, now.catalogueGeneration);
      ({ own, colourId } = colourFor(p, facts, inTransaction));
    }
    if (p.seen !== undefined) refuseIfChanged(p.session, line, now.columns, p.seen);
    rec.update('order_line', lineId, handColumns(p, colourId), now.columns);
  }
  return { facts, own, colourId, swapped };
}

/** The line's own colour and the colour it is placed in, by `facts` (and the colour memory, read in the step). */
function colourFor(
  p: Placing,
  facts: CatalogueFacts,
  inTransaction: PlacementLookup,
): { own: ColourCheck; colourId: number | null } {
  const { line } = p;
  const own = facts.own ?? checkColour(line.given, inTransaction);
  if (p.colourId !== null) return { own, colourId: p.colourId };
  if (own.status === 'unknown') {
    if (own.placed === null) {
      const given =
        line.given.colourId !== null
          ? `colour ${line.given.colourId}`
          : `the colour "${quote(line.given.colourName ?? '')}"`;
      throw new BrickWorkError(
        'needs-colour',
        `Line ${line.position} gives ${given}, which the catalogue does not know: choose the colour it should be.`,
      );
    }
    return { own, colourId: own.placed };
  }
  if (own.status === 'none') {
    // A line that gave an element id and no colour keeps the element's colour on this item (issue 43).
    const colourId =
      elementIdBeside(line.remarks) === null
        ? null
        : elementColourFor({ no: line.given.no, remarks: line.remarks }, { type: p.type, no: p.no }, inTransaction);
    return { own, colourId };
  }
  return { own, colourId: own.id };
}

/** Places again the other saved lines the step's memories may place: how many moved where, and in which orders. */
function placeOthers(db: StoreDb, rec: StepRecorder, candidates: readonly Candidate[]) {
  const others = { placed: 0, moved: 0, unplaced: 0 };
  const othersIn = new Set<string>();
  // Lines placed before that this placement moves or unplaces: staff confirm those first (SPEC §9).
  const displaced: Candidate[] = [];
  if (candidates.length > 0) {
    const again = catalogueLookup(db);
    for (const c of candidates) {
      const p = placeItem(c, again);
      const values = placementColumns(p);
      if (unchanged(values, c)) continue;
      rec.update('order_line', c.id, values);
      othersIn.add(c.orderReference);
      if (c.itemNo !== null) displaced.push(c);
      if (p.item === null) others.unplaced += 1;
      else if (c.itemNo === null) others.placed += 1;
      else others.moved += 1;
    }
  }
  return { others, othersIn, displaced };
}

/** "Hand placement of 3001 (order A, line 3) on P 3001 in Red": the step's name in the history. */
function stepLabel(db: StoreDb, p: Placing, facts: CatalogueFacts, colourId: number | null): string {
  const { line } = p;
  // A colour the catalogue has no name for (no colours loaded yet) goes by the document's name for it.
  const documentName = colourId === line.given.colourId ? line.given.colourName : null;
  const known =
    colourId === null
      ? null
      : facts.colourNames.has(colourId)
        ? facts.colourNames.get(colourId)
        : colourName(db, colourId);
  const inColour = colourId === null ? '' : ` in ${known ?? documentName ?? `colour ${colourId}`}`;
  return `Hand placement of ${describeGiven(line)} (${line.documentKey}, line ${line.position}) on ${p.type} ${p.no}${inColour}`;
}

/** A catalogue load came between the facts a hand placement read and its write: made again (see `handStep`). */
class CatalogueMoved extends Error {}

/** "This will also move 19 lines in 2 orders (A, B) from P 6141 to P 4070 …": what a confirmation is asked for. */
function displacedMessage(line: LineView, displaced: readonly Candidate[], to: string): string {
  const n = displaced.length;
  const orders = [...new Set(displaced.map((c) => c.orderReference))];
  const from = [...new Set(displaced.map((c) => `${c.itemType ?? ''} ${c.itemNo ?? ''}`))];
  const lines = `${n.toLocaleString('en-US')} line${n === 1 ? '' : 's'}`;
  const where = `${orders.length === 1 ? 'order' : `${orders.length} orders`} ${orders.map((r) => quote(r)).join(', ')}`;
  return (
    `Placing line ${line.position} on ${to} will also move ${lines} in ${where} from ${from.join(', ')}, ` +
    `where the placement remembered for ${describeGiven(line)} had put them. Confirm to place them all; one Undo takes it back.`
  );
}

/**
 * Remembers the item for the line's given, and how it was taught (SPEC §6 step 2): in the colour the line
 * is placed in, by this desk, now. What it did is known once the write's answer is read.
 */
function rememberItem(
  session: WriteSession,
  rec: StepRecorder,
  key: GivenKey,
  item: { type: string; no: string },
  colourId: number | null,
  clock: Clock,
): () => MemoryChange {
  const now = isoNow(clock);
  const adding = rec.insertUnlessThere('hand_placement', {
    given_type: key.type,
    given_no: key.no,
    name_key: key.no === null ? key.nameKey : null,
    item_type: item.type,
    item_no: item.no,
    created_at: now,
  });
  const taught = (placementId: number) =>
    rec.insert('hand_placement_teaching', {
      placement_id: placementId,
      item_type: item.type,
      item_no: item.no,
      colour_id: colourId,
      desk: session.desk,
      taught_at: now,
    });
  return () => {
    const added = adding();
    if (added !== null) {
      taught(added);
      return 'added';
    }
    const existing = findItemMemory(session.db, key.type, key.no, key.nameKey);
    if (existing === null) throw new Error('a memory for the line was neither made nor found');
    taught(existing.id);
    if (existing.itemType === item.type && existing.itemNo === item.no) return 'kept';
    rec.update('hand_placement', existing.id, { item_type: item.type, item_no: item.no });
    return 'changed';
  };
}

/**
 * A line placed by hand whose given name differs from the item's own (after folding case and spacing)
 * teaches the item that name: suggestions find the item by it from now on (SPEC §7, §8).
 */
function teachName(
  db: StoreDb,
  rec: StepRecorder,
  given: string | null,
  item: { type: string; no: string },
  /** The item's own folded name (`catalogueItemKey`), read with the step's other catalogue facts. */
  own: string | undefined,
  clock: Clock,
): MemoryChange | null {
  const name = given?.trim();
  if (!name) return null;
  const key = foldName(name);
  if (own === undefined || own === key) return null;
  if (findTaughtName(db, item.type, item.no, key) !== null) return 'kept';
  rec.insert('taught_name', { item_type: item.type, item_no: item.no, name, name_key: key, created_at: isoNow(clock) });
  return 'added';
}

function rememberColour(db: StoreDb, rec: StepRecorder, key: ColourKey, colourId: number, clock: Clock): MemoryChange {
  const existing = findColourMemory(db, key);
  if (existing === null) {
    rec.insert('colour_placement', {
      numbering: key.numbering,
      given_colour_id: key.numbering === 'bricklink-id' ? key.id : null,
      given_name_key: key.numbering === 'name' ? key.key : null,
      colour_id: colourId,
      created_at: isoNow(clock),
    });
    return 'added';
  }
  if (existing.colourId === colourId) return 'kept';
  rec.update('colour_placement', existing.id, { colour_id: colourId });
  return 'changed';
}

/** Which kind of memory: an item for a given number or name, a colour for an unknown given colour, a name taught to an item. */
export type MemoryKind = 'item' | 'colour' | 'name';

const MEMORY_TABLES = { item: 'hand_placement', colour: 'colour_placement', name: 'taught_name' } as const;

/** Forgets a memory (later imports no longer use it); lines it placed stay placed. One undo step. */
export function forgetMemory(
  session: WriteSession,
  kind: MemoryKind,
  id: number,
  clock: Clock,
  /** What the memory gave as the desk showed it (its item, or its colour); undefined: whatever it gives now. */
  seen?: { readonly type?: string; readonly no?: string; readonly colourId?: number },
): StepInfo {
  const { db } = session;
  const table = MEMORY_TABLES[kind];
  const row = memoryRow(db, table, id);
  if (row === undefined) {
    throw new BrickWorkError(
      'not-found',
      `There is no remembered ${kind === 'item' ? 'placement' : kind === 'colour' ? 'colour' : 'name'} ${id}.`,
    );
  }
  const what =
    kind === 'item'
      ? `the placement remembered for ${quote(String(row['given_no'] ?? row['name_key'] ?? ''))}`
      : kind === 'colour'
        ? `the colour remembered for ${row['numbering'] === 'bricklink-id' ? `colour ${String(row['given_colour_id'])}` : `"${quote(String(row['given_name_key']))}"`}`
        : `the name "${quote(String(row['name']))}" taught to ${String(row['item_type'])} ${String(row['item_no'])}`;
  return recordStepWithInfo(session, clock, (rec) => {
    // Read inside the write: another desk's change since the screen showed it is refused, not undone unseen.
    if (seen !== undefined) refuseIfMemoryChanged(session, table, id, what, seen);
    rec.delete(table, id);
    if (kind === 'item') placeRefusedAgain(db, rec, row);
    return { value: null, kind: 'forget-placement', label: `Forgetting ${what}` };
  }).step;
}

/**
 * The unplaced lines an item memory refused for their colour (SPEC §6 step 2) are placed again once it is
 * forgotten, in its step: their reason named it. The lines it placed stay placed (SPEC §8).
 */
function placeRefusedAgain(db: StoreDb, rec: StepRecorder, row: Record<string, string | number | null>): void {
  const type = String(row['given_type']);
  const no = row['given_no'] === null ? null : String(row['given_no']);
  const nameKey = row['name_key'] === null ? null : String(row['name_key']);
  const refused = linesFor(db, 0, { type, no, nameKey }, null).filter(
    (c) => c.itemNo === null && c.unplacedReason === UNPLACED_REASONS.rememberedNotInColour,
  );
  placeOthers(db, rec, refused);
}
