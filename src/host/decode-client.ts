import type { Worker } from 'node:worker_threads';
import { decodeWire, TooDeep } from '../api/wire.ts';

/**
 * The host's side of its decoding thread: a body of the wire's JSON in, the call's arguments out — objects
 * without prototypes, as `decodeWire(…, { nullPrototype: true })` gives them (SPEC §11: nothing downstream
 * meets an inherited name). Started on first use; if the thread stops, bodies are decoded here again and
 * the next one starts it anew (a body it held whole is lost with it: `ThreadStopped`). Throws what
 * `decodeWire` throws on a body that is not the wire's JSON.
 */
export class DecodeThread {
  private worker: Worker | null = null;
  private readonly waiting = new Map<
    number,
    { body: Buffer | null; resolve: (args: unknown) => void; reject: (e: Error) => void }
  >();
  private next = 1;

  constructor(private readonly start: () => Worker) {}

  /**
   * The arguments `body` holds. A body that owns its memory whole (a big one always does) is handed over
   * without a copy, and is unusable here after; a shared one goes over as a copy.
   */
  decode(body: Buffer): Promise<unknown> {
    const worker = this.ensure();
    const id = this.next++;
    const own =
      body.byteOffset === 0 && body.byteLength === body.buffer.byteLength && body.buffer instanceof ArrayBuffer;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { body: own ? null : body, resolve, reject });
      worker.ref();
      if (own) worker.postMessage({ id, body }, [body.buffer as ArrayBuffer]);
      else worker.postMessage({ id, body: new Uint8Array(body) });
    });
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    if (worker !== null) await worker.terminate();
  }

  private ensure(): Worker {
    if (this.worker !== null) return this.worker;
    const worker = this.start();
    worker.unref();
    worker.on('message', (m: { id: number; ok: boolean; args?: unknown; tooDeep?: boolean }) => {
      const w = this.waiting.get(m.id);
      if (w === undefined) return;
      this.waiting.delete(m.id);
      if (this.waiting.size === 0) worker.unref();
      if (m.ok) w.resolve(withoutPrototypes(m.args));
      else w.reject(m.tooDeep === true ? new TooDeep() : new SyntaxError('the request is not valid JSON'));
    });
    const stopped = () => {
      if (this.worker !== worker) return;
      this.worker = null;
      for (const w of this.waiting.values()) {
        // A body handed over whole went with the thread: the caller asks for it again.
        if (w.body === null) w.reject(new ThreadStopped('the upload was lost with the thread decoding it'));
        else {
          try {
            w.resolve(decodeWire(w.body.toString('utf8') || '{}', { nullPrototype: true }));
          } catch (e) {
            w.reject(e as Error);
          }
        }
      }
      this.waiting.clear();
    };
    worker.on('error', stopped);
    worker.on('exit', stopped);
    this.worker = worker;
    return worker;
  }
}

/** The decoding thread stopped while it held a body: it must be sent again. */
export class ThreadStopped extends Error {}

/** The value with every plain object made prototype-less again (structured clone gives them Object's). */
function withoutPrototypes(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(withoutPrototypes);
  if (typeof v !== 'object' || v === null || ArrayBuffer.isView(v)) return v;
  const o = Object.create(null) as Record<string, unknown>;
  for (const [k, x] of Object.entries(v)) o[k] = withoutPrototypes(x);
  return o;
}
