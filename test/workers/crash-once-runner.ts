/**
 * A job runner thread that stops the first time it is handed a catalogue load (issue 26, point 2), and is
 * the real runner thread from its next start on (a file beside the store counts the starts).
 */
import fs from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';

const { storePath } = workerData as { storePath: string };
const starts = `${storePath}.runner-starts`;
const first = !fs.existsSync(starts);
fs.appendFileSync(starts, 'x');
if (first) {
  parentPort?.on('message', (m: { type: string }) => {
    if (m.type === 'catalogue-load') process.exit(1);
  });
  // As the real one says once it has its store open.
  parentPort?.postMessage({ type: 'ready' });
} else {
  await import('../../src/app/runner-thread.ts');
}
