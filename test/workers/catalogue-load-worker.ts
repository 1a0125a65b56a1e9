/**
 * A catalogue load for the soak (`test/helpers/soak-catalogue.ts`): loads one Rebrickable parts.csv
 * into the store as the catalogue job (`loadCatalogue`), exactly as the CLI and the app's runner do.
 * Prints, with CLOCK_MONOTONIC times:
 *   ready T               the store is open; it asks for the catalogue job
 *   claimed T             it holds the store's catalogue job: the job's first time stamp, taken under the
 *                         write lock the moment it claims (its clock's first reading in loadCatalogue)
 *   start T               it has read the file and reports its first progress
 *   staged D T            D of the file's rows merged so far, not yet in the catalogue (its transaction
 *                         not committed, or its rows staged apart: issue 61 §2)
 *   merged T              the file is merged (committed); its lines are placed again next, the job not yet ended
 *   lines D N T           with a third argument `lines`: D of the N lines the merge asked for placed again (committed;
 *                         a batch to a transaction)
 *   end STATE T           the load returned (done or cancelled)
 *   busy T                refused: another live process loads a catalogue into this store (between
 *                         its `ready` and this line)
 * argv: STORE PARTS_CSV [lines]
 */
import fs from 'node:fs';
import { SYSTEM_CLOCK, type Clock } from '../../src/platform/clock.ts';
import { loadCatalogue } from '../../src/catalogue/load.ts';
import { isBrickWorkError } from '../../src/vocabulary/errors.ts';
import { connectionOwner } from '../../src/store/owners.ts';
import { openStore } from '../../src/store/open.ts';

const [storePath, partsFile] = process.argv.slice(2);
if (!storePath || !partsFile) throw new Error('usage: catalogue-load-worker STORE PARTS_CSV');
const now = () => process.hrtime.bigint().toString();
const say = (line: string) => process.stdout.write(`${line}\n`);

const content = new Uint8Array(fs.readFileSync(partsFile));
const store = await openStore(storePath);
let claimed = false;
const clock: Clock = {
  now: () => {
    if (!claimed) {
      claimed = true;
      say(`claimed ${now()}`);
    }
    return SYSTEM_CLOCK.now();
  },
};
say(`ready ${now()}`);
let started = false;
/** The rows merged, once the merge has committed: the progress after them is the lines placed again. */
let merged = 0;
const sayLines = process.argv[4] === 'lines';
try {
  const result = await loadCatalogue(store.db, storePath, [{ name: 'parts.csv', content }], {
    type: 'P',
    me: connectionOwner(store.db), // on a server, its session: as the app's runner
    clock,
    // Striking between batches: one batch a transaction (a load's own slices hold several).
    ...(sayLines ? { placeAgainSliceMs: 0 } : {}),
    onProgress: (p) => {
      if (!started) {
        started = true;
        say(`start ${now()}`);
      }
      // The report after a file's transaction has committed (the only one with done = total, as the
      // soak's file is not a whole number of progress steps).
      if (p.total !== null && p.done === p.total && p.total > 0 && !merged) {
        merged = p.done;
        say(`merged ${now()}`);
      } else if (merged === 0 && p.done > 0 && p.total !== null && p.done < p.total) {
        say(`staged ${p.done} ${now()}`);
      } else if (merged !== 0 && p.total !== null && sayLines)
        say(`lines ${p.done - merged} ${p.total - merged} ${now()}`);
    },
  });
  say(`end ${result.cancelled ? 'cancelled' : 'done'} ${now()}`);
} catch (e) {
  if (!isBrickWorkError(e) || e.code !== 'busy') throw e;
  say(`busy ${now()}`);
}
store.close();
