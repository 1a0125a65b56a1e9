import type { Database } from 'better-sqlite3';
import { isoNow, type Clock } from '../clock.ts';
import { BrickWorkError } from '../errors.ts';
import { DEFAULT_ITEM_TYPE, isItemType, type ItemType } from '../catalogue/item-types.ts';
import { getLine, type LineView } from '../store/lines.ts';
import { recordStep } from '../undo/history.ts';
import { foldName } from './fold.ts';

/**
 * Fixing by hand (SPEC §8): staff place a line (unplaced, or wrongly placed) on a catalogue item,
 * optionally with a colour. The placement is remembered for the line's given number — or, without a
 * number, its folded name — and used on later imports (§6 step 2). One undo step, remembering included.
 */
export function placeByHand(
  db: Database,
  lineId: number,
  target: { type: string; no: string; colourId: number | null },
  clock: Clock,
): LineView {
  const type = target.type.trim().toUpperCase();
  if (!isItemType(type)) throw new BrickWorkError('invalid-argument', `"${target.type}" is not a BrickLink item type (P, S, M, B, G, C, I, O).`);
  const no = db.prepare('SELECT item_no FROM catalogue_item WHERE item_type = ? AND item_no = ?').pluck().get(type, target.no.trim()) as string | undefined;
  if (no === undefined) throw new BrickWorkError('not-found', `${type} ${target.no} is not in the catalogue.`);
  const coloursLoaded = db.prepare('SELECT EXISTS (SELECT 1 FROM colour)').pluck().get() === 1;
  if (target.colourId !== null && coloursLoaded && db.prepare('SELECT 1 FROM colour WHERE id = ?').get(target.colourId) === undefined) {
    throw new BrickWorkError('not-found', `Colour ${target.colourId} is not in the catalogue.`);
  }
  const line = getLine(db, lineId);

  recordStep(db, clock, (rec) => {
    rec.update('order_line', lineId, {
      item_type: type,
      item_no: no,
      colour_id: target.colourId,
      placed_by: 'hand',
      unplaced_reason: null,
    });
    const givenType = line.given.type?.trim().toUpperCase() || DEFAULT_ITEM_TYPE;
    const givenNo = line.given.no?.trim() || null;
    const nameKey = givenNo === null && line.given.name?.trim() ? foldName(line.given.name) : null;
    if (givenNo !== null || nameKey !== null) {
      const existing = (
        givenNo !== null
          ? db.prepare('SELECT id FROM hand_placement WHERE given_type = ? AND given_no = ?').pluck().get(givenType, givenNo)
          : db.prepare('SELECT id FROM hand_placement WHERE given_type = ? AND given_no IS NULL AND name_key = ?').pluck().get(givenType, nameKey)
      ) as number | undefined;
      const memory = { item_type: type, item_no: no, colour_id: target.colourId };
      if (existing !== undefined) rec.update('hand_placement', existing, memory);
      else rec.insert('hand_placement', { given_type: givenType, given_no: givenNo, name_key: nameKey, ...memory, created_at: isoNow(clock) });
    }
    const what = line.given.no ?? line.given.name ?? `line ${line.position}`;
    return { value: null, kind: 'hand-placement', label: `Hand placement of ${what} (${line.documentKey}, line ${line.position}) on ${type} ${no}` };
  });
  return getLine(db, lineId);
}

export interface RememberedPlacement {
  readonly id: number;
  /** What the lines gave: a type and a number, or (without a number) a folded name. */
  readonly given: { readonly type: string; readonly no: string | null; readonly name: string | null };
  readonly item: { readonly type: ItemType; readonly no: string; readonly name: string | null };
  readonly colourId: number | null;
  readonly createdAt: string;
}

export function rememberedPlacements(db: Database): RememberedPlacement[] {
  const rows = db
    .prepare(
      `SELECT h.id, h.given_type, h.given_no, h.name_key, h.item_type, h.item_no, c.name AS item_name, h.colour_id, h.created_at
         FROM hand_placement h LEFT JOIN catalogue_item c ON c.item_type = h.item_type AND c.item_no = h.item_no
        ORDER BY h.id`,
    )
    .all() as {
    id: number;
    given_type: string;
    given_no: string | null;
    name_key: string | null;
    item_type: ItemType;
    item_no: string;
    item_name: string | null;
    colour_id: number | null;
    created_at: string;
  }[];
  return rows.map((r) => ({
    id: r.id,
    given: { type: r.given_type, no: r.given_no, name: r.name_key },
    item: { type: r.item_type, no: r.item_no, name: r.item_name },
    colourId: r.colour_id,
    createdAt: r.created_at,
  }));
}

/** Forgets a remembered placement (later imports no longer use it); lines it placed stay placed. One undo step. */
export function forgetPlacement(db: Database, id: number, clock: Clock): void {
  const row = db.prepare('SELECT given_type, given_no, name_key FROM hand_placement WHERE id = ?').get(id) as
    | { given_type: string; given_no: string | null; name_key: string | null }
    | undefined;
  if (row === undefined) throw new BrickWorkError('not-found', `There is no remembered placement ${id}.`);
  recordStep(db, clock, (rec) => {
    rec.delete('hand_placement', id);
    return { value: null, kind: 'forget-placement', label: `Forgetting the placement remembered for ${row.given_no ?? row.name_key ?? ''}` };
  });
}
