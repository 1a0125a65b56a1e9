/**
 * A PostgreSQL bridge thread without a server, for bridge.test.ts: it answers each statement as the real
 * thread does (the answer on the port, then the shared cell set and its waiter woken), but wakes its
 * caller a second time a moment after the first answer, as a thread held up between setting the cell and
 * waking does, and gives its second answer later than that. The late wake-up is no answer.
 */
import { workerData } from 'node:worker_threads';
import type { BridgeData, FromBridge, ToBridge } from '../../src/store/postgres/bridge-messages.ts';

const data = workerData as BridgeData;
const signal = new Int32Array(data.signal);
let queries = 0;

function answer(reply: FromBridge): void {
  data.port.postMessage(reply);
  Atomics.store(signal, 0, 1);
  Atomics.notify(signal, 0);
}

data.port.on('message', (m: ToBridge) => {
  if (m.kind !== 'query') return answer({ ok: true, rows: [], rowCount: 0, before: [], connection: 1 });
  queries += 1;
  const reply: FromBridge = { ok: true, rows: [{ answer: queries }], rowCount: 1, before: [], connection: 1 };
  if (queries === 1) {
    answer(reply);
    setTimeout(() => Atomics.notify(signal, 0), 50);
  } else setTimeout(() => answer(reply), 300);
});
