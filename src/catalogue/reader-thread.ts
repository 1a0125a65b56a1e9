/**
 * The catalogue reader thread (SPEC §12): reads a catalogue file and sends its rows, piece by piece, while
 * the catalogue job's thread writes them (`read-stream.ts`). It holds no store and writes nothing.
 */
import { parentPort } from 'node:worker_threads';
import type { ItemType } from '../vocabulary/item-types.ts';
import type { NamedContent } from './read-file.ts';
import { streamFile } from './read-stream.ts';
import { toWire } from './reader-wire.ts';

export type ReaderRequest =
  | { readonly type: 'read'; readonly id: number; readonly file: NamedContent; readonly itemType: ItemType | null }
  | { readonly type: 'cancel'; readonly id: number };

const port = parentPort;
if (port === null) throw new Error('reader-thread runs as a worker thread');
const cancelled = new Set<number>();
port.on('message', (m: ReaderRequest) => {
  if (m.type === 'cancel') {
    cancelled.add(m.id);
    return;
  }
  void streamFile(
    m.file,
    m.itemType,
    (msg) => port.postMessage({ id: m.id, msg: toWire(msg) }),
    () => cancelled.has(m.id),
  ).finally(() => cancelled.delete(m.id));
});
