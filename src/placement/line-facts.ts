/**
 * What the placement rule says of stored lines beyond what is stored (SPEC §9): how another numbering
 * placed a line, its given colour in the shop's words, and the item it was found as when only its colour
 * kept it unplaced. The handlers ask it; the views only show what it says.
 */
import type { ReadableDb } from '../store/db.ts';
import { catalogueItemName } from '../store/catalogue.ts';
import { colourInfo } from '../store/colours.ts';
import type { ItemType } from '../vocabulary/item-types.ts';
import { FOR_ITS_COLOUR } from '../vocabulary/reasons.ts';
import type { LineView } from '../store/lines.ts';
import { checkColour, memoryFor, placeItem, viaOf, type PlacementLookup } from './rule.ts';
import { rememberedVia } from './find-item.ts';

type Swatch = { readonly name: string; readonly rgb: string | null };

export interface LineFacts {
  readonly line: LineView;
  /** How it was placed through another numbering or the colour table; null when placed by hand, directly, or not at all. */
  readonly via: string | null;
  /** The catalogue's colour for the colour the line gives, by id or translated from another numbering or name. */
  readonly givenColour: Swatch | null;
  /** For a line unplaced only for its colour: the item the rule finds, with its name. */
  readonly itemFound: { readonly type: ItemType; readonly no: string; readonly name: string | null } | null;
  /**
   * The remembered hand placement that placed the line, or refused it for its colour (SPEC §6 step 2): its
   * id (to forget it from there), the item, and how it was taught; null for any other line.
   */
  readonly memory: {
    readonly id: number;
    readonly type: ItemType;
    readonly no: string;
    readonly taught: string;
  } | null;
}

/** The facts of each line, in order; `lookup` is the catalogue the rule reads. */
export function lineFacts(db: ReadableDb, lines: readonly LineView[], lookup: PlacementLookup): LineFacts[] {
  // Asked once a name for the whole list (a server pays a round trip a question; an order has few names),
  // and once a kind of line: an order's lines repeat their numbers, colours and placements.
  const translated = new Map<string, Swatch | null>();
  const vias = new Map<string, string | null>();
  return lines.map((l) => factsOf(db, l, lookup, translated, vias));
}

/** The facts of one line (one just placed by hand, say). */
export const oneLineFacts = (db: ReadableDb, line: LineView, lookup: PlacementLookup): LineFacts =>
  factsOf(db, line, lookup, new Map(), new Map());

/** How a placed line came to its item, asked once for lines alike (same given, remarks and placement). */
function viaFor(l: LineView, lookup: PlacementLookup, vias: Map<string, string | null>): string | null {
  if (l.placed === null || l.placed.by === 'hand') return null;
  const g = l.given;
  const p = l.placed;
  const key = JSON.stringify([
    g.type,
    g.no,
    g.name,
    g.colourId,
    g.colourName,
    g.numbering,
    l.remarks,
    p.type,
    p.no,
    p.colour,
    p.by,
  ]);
  let via = vias.get(key);
  if (via === undefined) {
    via = viaOf({ ...g, remarks: l.remarks }, p, lookup);
    vias.set(key, via);
  }
  return via;
}

function factsOf(
  db: ReadableDb,
  l: LineView,
  lookup: PlacementLookup,
  translated: Map<string, Swatch | null>,
  vias: Map<string, string | null>,
): LineFacts {
  return {
    line: l,
    via: viaFor(l, lookup, vias),
    givenColour: l.givenColour ?? translatedColour(db, l.given, lookup, translated),
    itemFound: l.reason !== null && FOR_ITS_COLOUR.has(l.reason.code) ? itemFound(db, l, lookup) : null,
    memory: l.placed?.by === 'remembered' || l.reason?.code === 'remembered-not-in-colour' ? memoryOf(l, lookup) : null,
  };
}

/** The memory behind a line placed by one, or refused by one, with how it was taught in words. */
function memoryOf(l: LineView, lookup: PlacementLookup): LineFacts['memory'] {
  const m = memoryFor(l.given, lookup);
  if (m === null) return null;
  return { id: m.id, type: m.item.type, no: m.item.no, taught: rememberedVia(l.given, m, lookup) };
}

/** The item the rule finds for a line unplaced only for its colour (SPEC §9), with its name. */
function itemFound(db: ReadableDb, l: LineView, lookup: PlacementLookup): LineFacts['itemFound'] {
  const p = placeItem({ ...l.given, remarks: l.remarks }, lookup);
  if (p.item !== null || p.found === undefined) return null;
  return { type: p.found.type, no: p.found.no, name: catalogueItemName(db, p.found.type, p.found.no) };
}

/**
 * A given colour in another numbering ("Rebrickable colour 47") or vocabulary, named in the shop's words
 * when the colour table translates it — whether or not the line's item was found (issue 47). `known`:
 * the names already asked for this list of lines.
 */
function translatedColour(
  db: ReadableDb,
  given: LineView['given'],
  lookup: PlacementLookup,
  known: Map<string, Swatch | null>,
): Swatch | null {
  const name = given.colourName?.trim() ?? '';
  if (name === '') return null;
  const key = `${given.colourId ?? ''}|${name}`;
  if (!known.has(key)) {
    const check = checkColour(given, lookup);
    const c = check.status === 'known' ? colourInfo(db, check.id) : null;
    known.set(key, c === null ? null : { name: c.name, rgb: c.rgb });
  }
  return known.get(key) ?? null;
}
