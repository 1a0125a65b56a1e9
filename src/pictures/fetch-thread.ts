/**
 * The pictures' thread (SPEC §15): fetches what the thread that answers calls wants, and keeps it in the
 * cache through a connection of its own; tells each address once done. The answers themselves are read
 * from the cache on the calling thread, which never waits for a fetch nor writes a picture.
 */
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { useNativeBinding } from '../store/native.ts';
import { PictureCache } from '../store/picture-cache.ts';
import { FetchQueue } from './fetch-queue.ts';
import type { FromPicturesThread, PicturesThreadData, ToPicturesThread } from './fetch-thread-messages.ts';

if (parentPort === null) throw new Error('pictures-thread runs as a worker thread');
const port: MessagePort = parentPort;
const data = workerData as PicturesThreadData;
useNativeBinding(data.nativeBinding);
const cache = PictureCache.attach(data.file, data.capBytes);
const post = (m: FromPicturesThread) => port.postMessage(m);
const queue = new FetchQueue({
  keep: (url, picture) => cache.put(url, picture, Date.now()),
  told: (url, outcome) => post({ url, outcome }),
  ...(data.timeoutMs === undefined ? {} : { timeoutMs: data.timeoutMs }),
});

port.on('message', (m: ToPicturesThread) => {
  switch (m.kind) {
    case 'want':
      return queue.want(m.urls);
    case 'shown':
      return cache.markShown(m.urls, m.now);
    case 'cap':
      return cache.setCap(m.bytes);
    case 'compact':
      return cache.compact();
    case 'stop':
      queue.stop();
      cache.close();
      port.close();
  }
});
