/**
 * A desk's job runner that claims one queued job and holds it, running, until it is killed: what a desk
 * that dies mid-job leaves (`dead-desk.test.ts`). Its desk's name from BRICK_WORK_DESK, as the app's.
 * Prints `claimed JOB` once it holds it.
 * argv: STORE KIND
 */
import { SYSTEM_CLOCK } from '../../src/platform/clock.ts';
import { writeSession } from '../../src/store/session.ts';
import { claimNext } from '../../src/jobs/queue.ts';
import { openStore } from '../../src/store/open.ts';
import { connectionOwner } from '../../src/store/owners.ts';

const [storePath, kind] = process.argv.slice(2);
if (!storePath || !kind) throw new Error('usage: claim-and-hold STORE KIND');
const store = await openStore(storePath);
const desk = process.env['BRICK_WORK_DESK'];
const job = claimNext(writeSession(store.db, desk || undefined), connectionOwner(store.db), {
  clock: SYSTEM_CLOCK,
  kinds: [kind],
});
if (job === null) throw new Error(`no ${kind} job to claim`);
process.stdout.write(`claimed ${job.id}\n`);
setInterval(() => {}, 60_000); // held until killed
