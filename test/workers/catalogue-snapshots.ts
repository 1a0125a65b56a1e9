/**
 * A reader of the catalogue while another process loads it (issue 61 §2): reads, as fast as it can, the
 * catalogue's generation, its items from one source and its element ids — one statement, so one
 * snapshot on either engine — and keeps each distinct answer. Prints `ready` once it has read, and on
 * `stop` (stdin) one JSON line: { reads, states: [[generation, items, elements], …] } in the order first seen.
 * argv: STORE SOURCE
 */
import readline from 'node:readline';
import { openStore } from '../../src/store/open.ts';
import { CATALOGUE_GENERATION_SQL } from '../../src/store/settings.ts';

const [storePath, source] = process.argv.slice(2);
if (!storePath || !source) throw new Error('usage: catalogue-snapshots STORE SOURCE');

const store = await openStore(storePath, { readOnly: true });
const read = store.db
  .prepare(
    `SELECT ${CATALOGUE_GENERATION_SQL} AS g, (SELECT count(*) FROM catalogue_item WHERE source = ?) AS i,
            (SELECT count(*) FROM element_code) AS e`,
  )
  .raw();
let stopped = false;
readline.createInterface({ input: process.stdin }).on('line', (l) => {
  if (l.trim() === 'stop') stopped = true;
});
const states = new Map<string, number[]>();
let reads = 0;
const once = () => {
  const row = (read.get(source) as unknown[]).map(Number);
  reads += 1;
  states.set(row.join(' '), row);
};
once();
process.stdout.write('ready\n');
while (!stopped) {
  once();
  // stdin's `stop` is read between reads.
  await new Promise((r) => setImmediate(r));
}
process.stdout.write(`${JSON.stringify({ reads, states: [...states.values()] })}\n`);
store.close();
process.exit(0);
