/** Pictures of items (SPEC §15, issue 48): answered at once from the cache; what is missing is fetched meanwhile. */
import { numberingOfFormat } from '../../vocabulary/numberings.ts';
import { bricklinkPicture, pictureKey, pictureSources, type PictureSource } from '../../pictures/address.ts';
import { givenOfLines } from '../../store/lines.ts';
import type { ReadableDb } from '../../store/db.ts';
import type { PictureView, PicturesStatusView } from '../contract.ts';
import type { PictureAnswer } from '../../pictures/fetcher.ts';
import type { PicturePort } from '../../pictures/port.ts';
import { reads, type PartialCallTable } from './define.ts';

const NO_PICTURES = 'pictures are shown in the app and the browser host';

function status(p: PicturePort | null | undefined): PicturesStatusView {
  const counts = p?.counts() ?? { fetched: 0, failed: 0, refused: 0, lastRefused: null, waiting: 0 };
  const cached = p?.cached() ?? { pictures: 0, missing: 0, bytes: 0 };
  return {
    network: p?.network() ?? false,
    ...counts,
    cached: cached.pictures,
    missing: cached.missing,
    bytes: cached.bytes,
    inMemory: p?.inMemory() ?? null,
  };
}

/**
 * Each source's picture as the screens show it: the addresses answered at once, in one look at the cache;
 * where the server has no picture in the colour asked, the item's usual picture (said so: not in colour).
 */
function viewsOf(port: PicturePort, sources: readonly (PictureSource | undefined)[]): PictureView[] {
  const answered = answersOf(
    port,
    sources.map((s) => (s?.url ? s.url : null)),
  );
  const usual = answersOf(
    port,
    sources.map((s) => (s?.url && s.usual !== undefined && isMissing(answered.get(s.url)) ? s.usual : null)),
  );
  return sources.map((source): PictureView => {
    if (source === undefined || source.url === null)
      return { state: 'none', why: source?.why ?? 'no picture is had for it' };
    const a = answered.get(source.url) ?? { state: 'waiting' };
    const other = source.usual === undefined ? undefined : usual.get(source.usual);
    if (isMissing(a) && other !== undefined && other.state !== 'none')
      return other.state === 'ready' ? { ...other, from: source.from, inColour: false } : other;
    return a.state === 'ready' ? { ...a, from: source.from, inColour: source.inColour } : withoutMark(a);
  });
}

function answersOf(port: PicturePort, urls: readonly (string | null)[]): Map<string, PictureAnswer> {
  const asked = [...new Set(urls.filter((u): u is string => u !== null))];
  if (asked.length === 0) return new Map();
  const answered = port.answers(asked);
  return new Map(asked.map((u, i) => [u, answered[i] ?? { state: 'waiting' }]));
}

const isMissing = (a: PictureAnswer | undefined): boolean => a?.state === 'none' && a.missing === true;

/** The view of an answer that is not a picture (its mark for this module dropped). */
function withoutMark(a: Exclude<PictureAnswer, { state: 'ready' }>): PictureView {
  return a.state === 'none' ? { state: 'none', why: a.why } : a;
}

/**
 * Each line's given item in its given colour, as its document names it: a BrickLink document's number and
 * colour are BrickLink's own; any other's number goes by the catalogue's rule (its colour id is not
 * BrickLink's, so the item's own picture).
 */
function givenSources(db: ReadableDb, port: PicturePort, lineIds: readonly number[]): PictureSource[] {
  const given = givenOfLines(db, lineIds);
  const bases = port.bases();
  const other = [...given.values()]
    .filter((g) => g.no !== null && numberingOfFormat(g.format) !== 'bricklink')
    .map((g) => ({ type: g.type?.trim().toUpperCase() || 'P', no: g.no?.trim() ?? '', colour: null }));
  const byCatalogue = pictureSources(db, other, bases);
  return lineIds.map((id): PictureSource => {
    const g = given.get(id);
    if (g === undefined) return { url: null, why: 'there is no such line' };
    const no = g.no?.trim();
    if (!no) return { url: null, why: 'the line gives no number, only a name' };
    const type = g.type?.trim().toUpperCase() || 'P';
    if (numberingOfFormat(g.format) === 'bricklink') return bricklinkPicture(bases, type, no, g.colourId);
    return (
      byCatalogue.get(pictureKey({ type, no, colour: null })) ?? { url: null, why: 'the number it gives is not known' }
    );
  });
}

export const PICTURES_CALLS = {
  'pictures.get': reads((d) => ({ items = [], lines = [] }) => {
    const port = d.ctx.pictures;
    if (port === undefined || port === null) {
      const none = (): PictureView => ({ state: 'none', why: NO_PICTURES });
      return { pictures: items.map(none), lines: lines.map(none) };
    }
    const sources = pictureSources(d.db, items, port.bases());
    const all = viewsOf(port, [
      ...items.map((item) => sources.get(pictureKey(item))),
      ...(lines.length === 0 ? [] : givenSources(d.db, port, lines)),
    ]);
    return { pictures: all.slice(0, items.length), lines: all.slice(items.length) };
  }),
  'pictures.status': reads((d) => () => status(d.ctx.pictures)),
  'pictures.clear': reads((d) => () => {
    d.ctx.pictures?.clear();
    return status(d.ctx.pictures);
  }),
} satisfies PartialCallTable;
