/** Pictures of items (SPEC §15, issue 48): answered at once from the cache; what is missing is fetched meanwhile. */
import { pictureSources, pictureKey } from '../../pictures/address.ts';
import type { PictureView, PicturesStatusView } from '../contract.ts';
import type { PicturePort } from '../ports.ts';
import { reads, type PartialCallTable } from './define.ts';

const NO_PICTURES = 'pictures are shown in the app and the browser host';

function status(p: PicturePort | null | undefined): PicturesStatusView {
  const counts = p?.counts() ?? { fetched: 0, failed: 0, waiting: 0 };
  const cached = p?.cached() ?? { pictures: 0, missing: 0, bytes: 0 };
  return {
    network: p?.network() ?? false,
    ...counts,
    cached: cached.pictures,
    missing: cached.missing,
    bytes: cached.bytes,
  };
}

export const PICTURES_CALLS = {
  'pictures.get': reads((d) => ({ items }) => {
    const port = d.ctx.pictures;
    if (port === undefined || port === null)
      return { pictures: items.map((): PictureView => ({ state: 'none', why: NO_PICTURES })) };
    const sources = pictureSources(d.db, items, port.bases());
    return {
      pictures: items.map((item): PictureView => {
        const source = sources.get(pictureKey(item));
        if (source === undefined || source.url === null)
          return { state: 'none', why: source?.why ?? 'no picture is had for it' };
        const a = port.answer(source.url);
        return a.state === 'ready' ? { ...a, from: source.from, inColour: source.inColour } : a;
      }),
    };
  }),
  'pictures.status': reads((d) => () => status(d.ctx.pictures)),
  'pictures.clear': reads((d) => () => {
    d.ctx.pictures?.clear();
    return status(d.ctx.pictures);
  }),
} satisfies PartialCallTable;
