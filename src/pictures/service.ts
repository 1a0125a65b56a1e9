/**
 * Pictures for the app and the browser host (SPEC §15, issue 48): the cache beside the store and its
 * fetcher, read by `pictures.*` calls, with the store's settings (on or off, days, cap, the servers).
 * The fetches run on this process's event loop, a few at a time, never waited for by a call.
 */
import path from 'node:path';
import type { PicturePort } from '../api/ports.ts';
import type { StoreDb } from '../store/db.ts';
import { userDataDir } from '../store/paths.ts';
import { PictureCache } from '../store/picture-cache.ts';
import { getSetting } from '../store/settings.ts';
import { isServerStore } from '../store-location.ts';
import { PictureFetcher } from './fetcher.ts';

/** The cache's file: beside a store file; for a store on a server, in the app's own folder. */
export function pictureCacheFile(storePath: string): string {
  if (isServerStore(storePath)) return path.join(userDataDir(), 'brick-work.pictures.sqlite');
  const name = path.basename(storePath).replace(/\.sqlite$/, '');
  return path.join(path.dirname(storePath), `${name}.pictures.sqlite`);
}

/**
 * The cache beside the store; where that can't be written (a store opened for reading from a folder that
 * can't be written), one in memory for this start: pictures are never worth refusing to start for.
 */
function openCache(file: string, capBytes: number): PictureCache {
  try {
    return PictureCache.open(file, capBytes);
  } catch {
    return PictureCache.open(':memory:', capBytes);
  }
}

/** How soon after a picture came the screens are told (pictures that come together, told once). */
const TELL_AFTER_MS = 150;

export function startPictures(o: {
  readonly db: StoreDb;
  readonly storePath: string;
  readonly onReady: () => void;
  readonly fetch?: typeof fetch;
}): PicturePort & { close(): void } {
  /** The picture settings, read once for each screenful asked (not once a picture). */
  const read = () => ({
    network: getSetting(o.db, 'pictures') === 'on',
    days: Number(getSetting(o.db, 'picture-days')),
    capBytes: Number(getSetting(o.db, 'picture-cache-mb')) * 1_000_000,
  });
  let current = read();
  const cache = openCache(pictureCacheFile(o.storePath), current.capBytes);
  let told: ReturnType<typeof setTimeout> | null = null;
  const fetcher = new PictureFetcher({
    cache,
    network: () => current.network,
    maxAgeDays: () => current.days,
    onReady: () => {
      told ??= setTimeout(() => {
        told = null;
        o.onReady();
      }, TELL_AFTER_MS);
    },
    ...(o.fetch === undefined ? {} : { fetch: o.fetch }),
  });
  return {
    bases: () => ({ bricklink: getSetting(o.db, 'picture-url'), rebrickable: getSetting(o.db, 'render-url') }),
    network: () => (current = read()).network,
    answers: (urls) => {
      const before = current.capBytes;
      current = read();
      // A cap changed in Settings takes effect at the next pictures asked.
      if (current.capBytes !== before) cache.setCap(current.capBytes);
      return cache.batch(() => urls.map((url) => fetcher.answer(url)));
    },
    counts: () => fetcher.counts(),
    cached: () => cache.stats(),
    clear: () => cache.clear(),
    close: () => {
      if (told !== null) clearTimeout(told);
      fetcher.stop();
      cache.close();
    },
  };
}
