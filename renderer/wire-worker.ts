/**
 * The page's file work, off its thread (issue 47, point 6): reading a chosen file, and encoding a call that
 * carries files for the browser host's wire. Base64 and JSON of tens of MB held every keypress for up to
 * 700 ms when catalogue files were chosen, and reading and copying the bytes on the page 100 ms more.
 * Files come as handles (no bytes cross); bytes read go back moved, a body as a Blob (no copy either way).
 */
import { encodeWire } from '../src/api/wire.ts';
import { FILE_MARK, type FromWireWorker, type ToWireWorker } from './wire-messages.ts';

const scope = self as unknown as {
  onmessage: ((e: MessageEvent<ToWireWorker>) => void) | null;
  postMessage(message: FromWireWorker, transfer?: Transferable[]): void;
};

/** `v` with each file mark replaced by that file's bytes. */
function withFiles(v: unknown, files: readonly Uint8Array[]): unknown {
  if (v instanceof Uint8Array || typeof v !== 'object' || v === null) return v;
  if (Array.isArray(v)) return v.map((x) => withFiles(x, files));
  const mark = (v as Record<string, unknown>)[FILE_MARK];
  if (typeof mark === 'number') return files[mark];
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, withFiles(x, files)]));
}

scope.onmessage = (e) => {
  const m = e.data;
  void (async () => {
    try {
      if (m.kind === 'read') {
        const bytes = await m.file.arrayBuffer();
        scope.postMessage({ id: m.id, kind: 'read', bytes }, [bytes]);
        return;
      }
      const files = await Promise.all(m.files.map(async (f) => new Uint8Array(await f.arrayBuffer())));
      const body = new Blob([encodeWire(withFiles(m.value, files))], { type: 'application/json' });
      scope.postMessage({ id: m.id, kind: 'body', body });
    } catch (err) {
      // A file changed or gone since it was chosen: the page does it itself, and says what it meets.
      scope.postMessage({ id: m.id, kind: 'failed', message: err instanceof Error ? err.message : String(err) });
    }
  })();
};
