/**
 * Where an item's picture is had (SPEC §15, issue 48), as the field's tools get it: BrickLink's public item
 * pictures, by the item's BrickLink number and colour; else Rebrickable's LDraw renders, where the
 * cross-references give the part an LDraw number and the colour table a Rebrickable colour; else none,
 * and why (a placeholder says it). The item's numbers come from the one rule (`catalogue/item-numbers.ts`).
 */
import type { ReadableDb } from '../store/db.ts';
import { colourIdsFromBrickLink } from '../store/item-numbers.ts';
import { itemNumbers } from '../catalogue/item-numbers.ts';

/** The base addresses (settings, so that tests use a stand-in on 127.0.0.1). */
export interface PictureBases {
  /** BrickLink's picture server: `https://img.bricklink.com`. */
  readonly bricklink: string;
  /** Rebrickable's: `https://cdn.rebrickable.com`. */
  readonly rebrickable: string;
}

export const PICTURE_BASES: PictureBases = {
  bricklink: 'https://img.bricklink.com',
  rebrickable: 'https://cdn.rebrickable.com',
};

/** An item in a colour (a catalogue item: its type and number; the colour a BrickLink id, or none). */
export interface PictureItem {
  readonly type: string;
  readonly no: string;
  readonly colour: number | null;
}

export type PictureSource =
  /** `inColour`: in the colour asked (false: the item's usual picture, none being had in that colour). */
  | {
      readonly url: string;
      readonly from: 'bricklink' | 'rebrickable';
      readonly inColour: boolean;
      /** The item's usual picture, shown where the server has none in the colour asked. */
      readonly usual?: string;
    }
  | { readonly url: null; readonly why: string };

/** BrickLink's item types that have pictures, each its letter in the address (`PN` parts, `SN` sets…). */
const TYPE_LETTERS: Readonly<Record<string, string>> = {
  P: 'P',
  S: 'S',
  M: 'M',
  B: 'B',
  G: 'G',
  C: 'C',
  I: 'I',
  O: 'O',
};

/** Only parts come in colours on BrickLink's pictures: every other type is colour 0. */
const COLOURED = new Set(['P', 'G']);

export function pictureKey(item: PictureItem): string {
  return `${item.type}\t${item.no}\t${item.colour ?? ''}`;
}

/** Each item's picture address (or why there is none), by `pictureKey`: a few statements for any number of items. */
export function pictureSources(
  db: ReadableDb,
  items: readonly PictureItem[],
  bases: PictureBases = PICTURE_BASES,
): Map<string, PictureSource> {
  const numbers = itemNumbers(db, items);
  const rebrickableColours = colourIdsFromBrickLink(
    db,
    'rebrickable',
    items.flatMap((i) => (i.colour === null ? [] : [i.colour])),
  );
  const out = new Map<string, PictureSource>();
  for (const item of items) {
    const key = pictureKey(item);
    if (out.has(key)) continue;
    const letter = TYPE_LETTERS[item.type];
    const n = numbers.get(item.type, item.no);
    if (letter !== undefined && n.bricklink !== null) {
      out.set(key, bricklinkPicture(bases, item.type, n.bricklink, item.colour));
      continue;
    }
    const rebrickableColour = item.colour === null ? null : (rebrickableColours.get(item.colour)?.[0] ?? null);
    if (item.type === 'P' && n.ldraw !== null && rebrickableColour !== null) {
      out.set(key, {
        url: `${trimmed(bases.rebrickable)}/media/parts/ldraw/${rebrickableColour}/${encodeURIComponent(n.ldraw)}.png`,
        from: 'rebrickable',
        inColour: true,
      });
      continue;
    }
    out.set(key, {
      url: null,
      why:
        letter === undefined
          ? `no pictures are had for items of type ${item.type}`
          : item.type === 'P' && n.ldraw !== null
            ? `its BrickLink number is not known, and its colour has no Rebrickable id (load Rebrickable's colour list)`
            : `its BrickLink number is not known (load BrickLink's catalogue or Rebrickable's cross-references)`,
    });
  }
  return out;
}

/** BrickLink's picture of an item by its BrickLink number, in a BrickLink colour (parts and gear only). */
export function bricklinkPicture(bases: PictureBases, type: string, no: string, colour: number | null): PictureSource {
  const letter = TYPE_LETTERS[type];
  if (letter === undefined) return { url: null, why: `no pictures are had for items of type ${type}` };
  const coloured = COLOURED.has(type) && colour !== null && colour !== 0;
  const at = (c: number) => `${trimmed(bases.bricklink)}/ItemImage/${letter}N/${c}/${encodeURIComponent(no)}.png`;
  return {
    url: at(coloured ? colour : 0),
    from: 'bricklink',
    // No colour asked: the item's own picture is what was asked.
    inColour: colour === null || coloured,
    ...(coloured ? { usual: at(0) } : {}),
  };
}

function trimmed(base: string): string {
  return base.replace(/\/+$/, '');
}
