/**
 * The browser host's decoding thread (SPEC §11): turns a big request body — JSON with files as base64 —
 * into the call's arguments off the thread that answers the screens. The files' bytes are handed back
 * without a copy; the objects get their null prototypes back on the host's thread (`decode-client.ts`).
 */
import { parentPort } from 'node:worker_threads';
import { decodeWire, TooDeep } from '../api/wire.ts';

const port = parentPort;
if (port === null) throw new Error('decode-thread runs as a worker thread');

port.on('message', ({ id, body }: { id: number; body: Uint8Array }) => {
  let args: unknown;
  try {
    const text = Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8') || '{}';
    // Each file its own memory (Buffer.from may share a pool), so that it can be handed over whole.
    args = decodeWire(text, { bytes: (base64) => new Uint8Array(Buffer.from(base64, 'base64')) });
  } catch (e) {
    port.postMessage({ id, ok: false, tooDeep: e instanceof TooDeep });
    return;
  }
  const files: ArrayBuffer[] = [];
  const visit = (v: unknown): void => {
    if (v instanceof Uint8Array) {
      if (v.buffer instanceof ArrayBuffer && !files.includes(v.buffer)) files.push(v.buffer);
    } else if (Array.isArray(v)) v.forEach(visit);
    else if (typeof v === 'object' && v !== null) Object.values(v).forEach(visit);
  };
  visit(args);
  port.postMessage({ id, ok: true, args }, files);
});
