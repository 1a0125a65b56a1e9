/**
 * Another desk's small writes while catalogue loads run and are killed (the soak's catalogue kind, issue
 * 61 §2): a setting written every few ms as a desk writes one (its busy timeout, 10 s), each
 * write timed, until STOP_FILE appears. Prints:
 *   ready
 *   slow MS T          a write that waited MS ms (over 250), committed
 *   refused CODE T     a write refused (store-busy after the busy timeout), nothing written
 *   end WRITES LONGEST a summary: writes made, the longest one (ms)
 * argv: STORE STOP_FILE
 */
import fs from 'node:fs';
import { isBrickWorkError } from '../../src/vocabulary/errors.ts';
import { openStore } from '../../src/store/open.ts';
import { setSetting } from '../../src/store/settings.ts';

const [storePath, stopFile] = process.argv.slice(2);
if (!storePath || !stopFile) throw new Error('usage: small-writes-worker STORE STOP_FILE');
const now = () => process.hrtime.bigint().toString();
const say = (line: string) => process.stdout.write(`${line}\n`);

const store = await openStore(storePath);
say('ready');
let writes = 0;
let longest = 0;
while (!fs.existsSync(stopFile)) {
  const t = performance.now();
  try {
    setSetting(store.db, 'daily-call-limit', String(5000 + (writes % 2)));
  } catch (e) {
    if (!isBrickWorkError(e)) throw e;
    say(`refused ${e.code} ${now()}`);
  }
  const ms = performance.now() - t;
  writes += 1;
  longest = Math.max(longest, ms);
  if (ms > 250) say(`slow ${Math.round(ms)} ${now()}`);
  await new Promise((r) => setTimeout(r, 5));
}
say(`end ${writes} ${Math.round(longest)}`);
store.close();
