/**
 * The page's file work done on a worker (`wire-worker.ts`), so that keys pressed meanwhile are answered at
 * once (issue 47, point 6; SPEC §9): a chosen file read, and a call that carries files encoded for the
 * browser host's wire. The bytes a file was read into remember their file: a call that carries them
 * sends the worker the file's handle, which it reads again itself — nothing of megabytes is copied, cloned
 * or encoded on the page. Where no worker can be had, or it fails, the page does it itself.
 */
import { encodeWire } from '../src/api/wire.ts';
import { FILE_MARK, type FromWireWorker, type ToWireWorker } from './wire-messages.ts';

type Ask = ToWireWorker extends infer T ? (T extends ToWireWorker ? Omit<T, 'id'> : never) : never;

let worker: { port: Worker; next: number; waiting: Map<number, (m: FromWireWorker | null) => void> } | null = null;

/** The worker's answer to `m`; null where there is no worker, or it stopped. */
function ask(m: Ask, transfer: Transferable[] = []): Promise<FromWireWorker | null> {
  if (typeof Worker === 'undefined') return Promise.resolve(null);
  try {
    if (worker === null) {
      const port = new Worker(new URL('./wire-worker.ts', import.meta.url), { type: 'module' });
      const made = { port, next: 0, waiting: new Map<number, (m: FromWireWorker | null) => void>() };
      port.onmessage = (e: MessageEvent<FromWireWorker>) => {
        made.waiting.get(e.data.id)?.(e.data);
        made.waiting.delete(e.data.id);
      };
      // A worker that can't start or stops: what waits is done on the page instead.
      port.onerror = () => {
        for (const resolve of made.waiting.values()) resolve(null);
        made.waiting.clear();
        worker = null;
      };
      worker = made;
    }
    const made = worker;
    const id = (made.next += 1);
    return new Promise((resolve) => {
      made.waiting.set(id, resolve);
      made.port.postMessage({ ...m, id } as ToWireWorker, transfer);
    });
  } catch {
    return Promise.resolve(null);
  }
}

/** The file each array of bytes was read from (`readChosenFile`). */
const sourceOf = new WeakMap<Uint8Array, Blob>();

/**
 * A file the staff chose or dropped, read. On the worker, its bytes moved back; else in pieces, as a
 * stream (one `arrayBuffer()` of megabytes held the page while it was copied in).
 */
export async function readChosenFile(file: Blob): Promise<Uint8Array> {
  const answer = await ask({ kind: 'read', file });
  const content = answer?.kind === 'read' ? new Uint8Array(answer.bytes) : await readInPieces(file);
  sourceOf.set(content, file);
  return content;
}

async function readInPieces(file: Blob): Promise<Uint8Array> {
  const content = new Uint8Array(file.size);
  let at = 0;
  const reader = file.stream().getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (at + value.length > content.length) return new Uint8Array(await file.arrayBuffer());
    content.set(value, at);
    at += value.length;
  }
  return at === content.length ? content : content.slice(0, at);
}

/**
 * A call's body for the wire, encoded on the worker: each array of bytes read from a chosen file goes as
 * that file's handle; any other is copied over (one memcpy, then moved). On the page where no worker can.
 */
export async function encodeOffThread(args: unknown): Promise<string | Blob> {
  const files: Blob[] = [];
  const moved: ArrayBuffer[] = [];
  const marked = (v: unknown): unknown => {
    if (v instanceof Uint8Array) {
      const file = sourceOf.get(v);
      if (file !== undefined && file.size === v.length) {
        files.push(file);
        return { [FILE_MARK]: files.length - 1 };
      }
      const copy = v.slice();
      moved.push(copy.buffer);
      return copy;
    }
    if (Array.isArray(v)) return v.map(marked);
    if (typeof v === 'object' && v !== null)
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, marked(x)]));
    return v;
  };
  const answer = await ask({ kind: 'encode', value: marked(args), files }, moved);
  return answer?.kind === 'body' ? answer.body : encodeWire(args);
}
