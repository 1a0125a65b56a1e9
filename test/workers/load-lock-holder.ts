/**
 * Another desk loading a catalogue, as a write sees it: it holds the store's catalogue job (its desk's
 * name from BRICK_WORK_DESK) and the store's write lock (`BEGIN IMMEDIATE`, as a file's merge does), prints
 * `locked`, and holds both until a line arrives on stdin; then it commits, ends the job, prints `released`.
 * argv: STORE [plain] — `plain`: the write lock only, no catalogue job (another program writing).
 */
import { SYSTEM_CLOCK } from '../../src/platform/clock.ts';
import { CatalogueJob } from '../../src/catalogue/catalogue-job.ts';
import { openStore } from '../../src/store/open.ts';
import { connectionOwner } from '../../src/store/owners.ts';

const [storePath, how] = process.argv.slice(2);
if (!storePath) throw new Error('usage: load-lock-holder STORE [plain]');
const store = await openStore(storePath);
const desk = process.env['BRICK_WORK_DESK'];
const job =
  how === 'plain'
    ? null
    : CatalogueJob.start(
        store.db,
        storePath,
        'catalogue-load',
        { files: ['parts.csv'] },
        {
          me: connectionOwner(store.db),
          ...(desk ? { desk } : {}),
          clock: SYSTEM_CLOCK,
        },
      ).job;
store.db.exec('BEGIN IMMEDIATE');
process.stdout.write('locked\n');
process.stdin.once('data', () => {
  store.db.exec('COMMIT');
  job?.finish('done');
  store.close();
  process.stdout.write('released\n');
  process.exit(0);
});
