import path from 'node:path';
import { writeSession } from '../../src/store/session.ts';
import { describe, expect, it, onTestFinished } from 'vitest';
import { SYSTEM_CLOCK } from '../../src/platform/clock.ts';
import { LOOKUP_JOB_KIND, lookupHandler } from '../../src/catalogue/lookup-job.ts';
import { Source } from '../../src/catalogue/source.ts';
import { JobRunner } from '../../src/jobs/runner.ts';
import { listJobs } from '../../src/jobs/queue.ts';
import { buildStore, insertJob } from '../helpers/store-builder.ts';
import { tempDir } from '../helpers/temp.ts';

// Issue 27, point 6: each job kind reads its data at the claim; data it could not have written fails the
// job in words, and nothing runs on data made up for it (the queue used to read it as `{}`).
describe("a job whose data can't be read", () => {
  const run = async (payload: string) => {
    const db = buildStore(path.join(tempDir(), 'jobs.sqlite'), '4.2');
    onTestFinished(() => void db.close());
    const id = insertJob(db, { kind: LOOKUP_JOB_KIND, state: 'queued' });
    db.prepare('UPDATE job SET payload = ? WHERE id = ?').run(payload, id);
    let asked = 0;
    const source = new Source(db, SYSTEM_CLOCK, {
      fetchItem: () => {
        asked += 1;
        return Promise.resolve({ found: false });
      },
      fetchColours: () => Promise.resolve([]),
    });
    const runner = new JobRunner({
      session: writeSession(db),
      clock: SYSTEM_CLOCK,
      handlers: { [LOOKUP_JOB_KIND]: lookupHandler(source, { clock: SYSTEM_CLOCK }) },
    });
    const result = await runner.runJob(id);
    const [job] = listJobs(db);
    return { result, job, asked };
  };

  for (const [what, payload, why] of [
    ['not JSON', '{limit: 5', /its data can't be read — it is not JSON/],
    ['a limit that is not a whole number', '{"limit": "ten", "calls": 0}', /its limit is .*ten.*, not a whole number/],
    ['not an object', '[1, 2]', /not an object/],
  ] as const) {
    it(`fails, in words, before anything runs: ${what}`, async () => {
      const { result, job, asked } = await run(payload);
      expect(result.outcome).toBe('failed');
      expect(result.error?.message).toMatch(why);
      expect(result.error?.message).toContain('start the work again as a new job');
      expect(job).toMatchObject({ state: 'failed', error: result.error?.message });
      expect(asked).toBe(0);
    });
  }

  it('an older job without a run in its data still runs (a run with no cap)', async () => {
    const { result } = await run('{}');
    expect(result.outcome).toBe('done');
  });
});
