/**
 * The pictures a process that fetches none can show (the CLI's printed lists, SPEC §15–§16): those the
 * picture cache beside the store already keeps, read from it and nothing asked of the network. The cache
 * is opened at the first picture asked, and only where its file is there: no cache is made for a look.
 */
import fs from 'node:fs';
import type { ReadableDb } from '../store/db.ts';
import { PictureCache, pictureCacheFile } from '../store/picture-cache.ts';
import { getSetting } from '../store/settings.ts';
import type { PicturePort } from './port.ts';

const NOT_FETCHED = 'this process fetches no pictures: the app and the browser host do';

export function keptPicturesOnly(o: { readonly db: ReadableDb; readonly storePath: string }): PicturePort & {
  close(): void;
} {
  const file = pictureCacheFile(o.storePath);
  /** undefined: not looked for yet; null: there is none (or it can't be read). */
  let cache: PictureCache | null | undefined;
  const opened = (): PictureCache | null => {
    if (cache !== undefined) return cache;
    try {
      cache = fs.existsSync(file)
        ? PictureCache.open(file, Number(getSetting(o.db, 'picture-cache-mb')) * 1_000_000)
        : null;
    } catch {
      cache = null; // pictures are never worth a refusal: the list prints without them
    }
    return cache;
  };
  return {
    bases: () => ({ bricklink: getSetting(o.db, 'picture-url'), rebrickable: getSetting(o.db, 'render-url') }),
    network: () => false,
    answers: (urls) => urls.map(() => ({ state: 'none', why: NOT_FETCHED })),
    kept: (urls) => {
      const c = opened();
      return c === null ? urls.map(() => null) : c.batch(() => urls.map((u) => c.peek(u)?.picture ?? null));
    },
    counts: () => ({ fetched: 0, failed: 0, refused: 0, lastRefused: null, waiting: 0 }),
    cached: () => opened()?.stats() ?? { pictures: 0, missing: 0, bytes: 0 },
    inMemory: () => null,
    clear: () => opened()?.clear(),
    close: () => cache?.close(),
  };
}
