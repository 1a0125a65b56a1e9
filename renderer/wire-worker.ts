/**
 * Encodes a call that carries files for the browser host's wire, off the page's thread (issue 47, point 6):
 * base64 and JSON of tens of MB held every keypress for up to 700 ms when catalogue files were chosen.
 * Answers with a Blob, which goes back to the page without a copy.
 */
import { encodeWire } from '../src/api/wire.ts';

const scope = self as unknown as {
  onmessage: ((e: MessageEvent<{ id: number; value: unknown }>) => void) | null;
  postMessage(message: { id: number; body: Blob }): void;
};

scope.onmessage = (e) => {
  const body = new Blob([encodeWire(e.data.value)], { type: 'application/json' });
  scope.postMessage({ id: e.data.id, body });
};
