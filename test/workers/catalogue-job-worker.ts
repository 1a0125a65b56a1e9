/**
 * Starts the store's catalogue job and holds it (reporting progress) until killed or until HOLD_MS
 * passes; prints `started` or `busy`. argv: STORE HOLD_MS [GO_FILE]. Its desk's name from BRICK_WORK_DESK, as the app's.
 */
import fs from 'node:fs';
import { SYSTEM_CLOCK } from '../../src/platform/clock.ts';
import { isBrickWorkError } from '../../src/vocabulary/errors.ts';
import { connectionOwner } from '../../src/store/owners.ts';
import { CatalogueJob } from '../../src/catalogue/catalogue-job.ts';
import { openStore } from '../../src/store/open.ts';

const [storePath, holdMs, goFile] = process.argv.slice(2);
if (!storePath) throw new Error('usage: catalogue-job-worker STORE HOLD_MS [GO_FILE]');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const store = await openStore(storePath);
const desk = process.env['BRICK_WORK_DESK'];
process.stdout.write('ready\n');
if (goFile) while (!fs.existsSync(goFile)) await sleep(1);
try {
  const { job, warning } = CatalogueJob.start(
    store.db,
    storePath,
    'catalogue-load',
    { files: ['parts.csv'] },
    {
      me: connectionOwner(store.db), // this process, or on a server its session (as the app's runner)
      ...(desk ? { desk } : {}),
      clock: SYSTEM_CLOCK,
    },
  );
  process.stdout.write(`started${warning ? ` warning: ${warning}` : ''}\n`);
  const until = Date.now() + Number(holdMs ?? 0);
  let done = 0;
  while (Date.now() < until) {
    await sleep(20);
    if (!job.progress({ done: ++done, total: null })) break;
  }
  job.finish('done');
  process.stdout.write('finished\n');
} catch (e) {
  if (!isBrickWorkError(e)) throw e;
  process.stdout.write(`${e.code}: ${e.message}\n`);
}
store.close();
