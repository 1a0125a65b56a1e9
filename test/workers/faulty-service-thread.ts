/**
 * A service thread with faults a shop's machine has (issue 26, point 1), for service-threads.ts: as the
 * writer, each start counts itself in a file and then, by the store path's name, either can't open its
 * store ("busy": it says why, then ends a moment later, as a real one does) or ends in the middle of a
 * call ("crash"). As the suggestion thread (and the reader) it answers every call with null, and fails to
 * build its index when the store path's name ends in "index-fails".
 */
import fs from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import type { ServiceThreadData, StampedServiceMessage } from '../../src/app/service-thread-messages.ts';

const port = parentPort;
if (port === null) throw new Error('a worker thread');
const data = workerData as ServiceThreadData;
if (data.role === 'suggest' || data.role === 'reader') {
  port.postMessage({ type: 'ready' });
  port.on('message', (m: StampedServiceMessage) => {
    if (m.type === 'call') port.postMessage({ type: 'answer', id: m.id, result: { ok: true, value: null } });
    // "index-fails": its catalogue can't be read, as a damaged store's can't.
    if (m.type === 'build-index' && data.storePath.endsWith('index-fails'))
      port.postMessage({ type: 'index-failed', error: { code: 'store-damaged', message: 'The store is damaged.' } });
    if (m.type === 'stop') process.exit(0);
  });
} else {
  fs.appendFileSync(`${data.storePath}.starts`, 'x');
  if (data.storePath.endsWith('busy')) {
    port.postMessage({
      type: 'failed',
      error: { code: 'store-busy', message: 'Another brick-work is writing to this store; try again.' },
    });
    setTimeout(() => process.exit(0), 300);
  } else {
    port.postMessage({ type: 'ready' });
    port.on('message', (m: StampedServiceMessage) => {
      if (m.type === 'call') process.exit(1);
      if (m.type === 'stop') process.exit(0);
    });
  }
}
