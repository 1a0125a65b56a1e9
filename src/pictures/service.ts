/**
 * Pictures for the app and the browser host (SPEC §15, issue 48): the cache beside the store and its
 * fetcher, read by `pictures.*` calls, with the store's settings (on or off, days, cap, the servers).
 * The fetching runs on a thread of its own, a few at a time, never waited for by a call; the calls read
 * the cache on their own thread.
 */
import type { Worker } from 'node:worker_threads';
import type { StoreDb } from '../store/db.ts';
import { PictureCache, pictureCacheFile } from '../store/picture-cache.ts';
import { getSetting } from '../store/settings.ts';
import { startWorker, threadUrl } from '../platform/worker-start.ts';
import type { FetchOutcome } from './fetch-queue.ts';
import type { FromPicturesThread, PicturesThreadData, ToPicturesThread } from './fetch-thread-messages.ts';
import { localFetches, PictureFetcher, type PictureFetches } from './fetcher.ts';
import type { PicturePort } from './port.ts';

/**
 * The cache beside the store; where something else sits at its path (left as it is), or it can't be
 * opened or made (a store opened for reading from a folder that can't be written), one in memory for this
 * start, said in Settings: pictures are never worth refusing to start for.
 */
function openCache(file: string, capBytes: number): PictureCache {
  try {
    return PictureCache.open(file, capBytes);
  } catch {
    return PictureCache.inMemory(capBytes, `${file} can't be opened or made`);
  }
}

/**
 * The fetching on the pictures' thread, keeping into `file` through its own connection. Should the thread
 * fail, the fetching goes on in this thread (pictures are never worth a failure a worker sees).
 */
function threadFetches(
  file: string,
  cache: PictureCache,
  data: Omit<PicturesThreadData, 'file'>,
  told: (url: string, outcome: FetchOutcome) => void,
): PictureFetches {
  let local: PictureFetches | null = null;
  // Started when first needed: a start that never shows a picture (a test, a script) starts no thread.
  let worker: Worker | null = null;
  const started = (): Worker => {
    if (worker !== null) return worker;
    const w = startWorker(threadUrl('pictures-thread'), { ...data, file } satisfies PicturesThreadData);
    w.unref();
    w.on('message', (m: FromPicturesThread) => told(m.url, m.outcome));
    w.on('error', () => (local ??= localFetches(cache, {}, told)));
    return (worker = w);
  };
  const send = (m: ToPicturesThread, orLocally: (f: PictureFetches) => void) =>
    local === null ? started().postMessage(m) : orLocally(local);
  return {
    want: (urls) => send({ kind: 'want', urls }, (f) => f.want(urls)),
    shown: (urls, now) => send({ kind: 'shown', urls, now }, (f) => f.shown(urls, now)),
    setCap: (bytes) => send({ kind: 'cap', bytes }, (f) => f.setCap(bytes)),
    compact: () => send({ kind: 'compact' }, (f) => f.compact()),
    stop: () => {
      local?.stop();
      const w = worker;
      if (w === null) return;
      if (local === null) w.postMessage({ kind: 'stop' } satisfies ToPicturesThread);
      // Whatever it was fetching is given up with it.
      setTimeout(() => void w.terminate(), 1_000).unref();
    },
  };
}

/** How soon after a picture came the screens are told (pictures that come together, told once). */
const TELL_AFTER_MS = 150;

export function startPictures(o: {
  readonly db: StoreDb;
  readonly storePath: string;
  readonly onReady: () => void;
  /** The better-sqlite3 binary for the pictures' thread; no thread given: the fetching runs in this one. */
  readonly thread?: { readonly nativeBinding: string | null } | null;
}): PicturePort & { close(): void } {
  /** The picture settings, read once for each screenful asked (not once a picture). */
  const read = () => ({
    network: getSetting(o.db, 'pictures') === 'on',
    days: Number(getSetting(o.db, 'picture-days')),
    capBytes: Number(getSetting(o.db, 'picture-cache-mb')) * 1_000_000,
  });
  let current = read();
  const file = pictureCacheFile(o.storePath);
  const cache = openCache(file, current.capBytes);
  // A cache held in memory (something else at its path, or its folder can't be written) is this thread's alone.
  const thread = o.thread && cache.file !== ':memory:' ? o.thread : null;
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
    ...(thread === null
      ? {}
      : {
          fetches: (told) =>
            threadFetches(file, cache, { capBytes: current.capBytes, nativeBinding: thread.nativeBinding }, told),
        }),
  });
  return {
    bases: () => ({ bricklink: getSetting(o.db, 'picture-url'), rebrickable: getSetting(o.db, 'render-url') }),
    network: () => (current = read()).network,
    answers: (urls) => {
      const before = current.capBytes;
      current = read();
      // A cap changed in Settings takes effect at the next pictures asked.
      if (current.capBytes !== before) fetcher.setCap(current.capBytes);
      return fetcher.answers(urls);
    },
    kept: (urls) => cache.batch(() => urls.map((u) => cache.peek(u)?.picture ?? null)),
    counts: () => fetcher.counts(),
    cached: () => cache.stats(),
    inMemory: () => cache.heldInMemory,
    clear: () => fetcher.clear(),
    close: () => {
      if (told !== null) clearTimeout(told);
      fetcher.stop();
      cache.close();
    },
  };
}
