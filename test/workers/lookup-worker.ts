/**
 * Runs the look-up job (`lookupHandler`) for the soak (`test/helpers/soak-lookup.ts`) as the CLI's
 * `catalogue lookup` and the app's runner thread do: a JobRunner that claims it while it has work,
 * asking the BrickLink stand-in at API_URL (credentials from BRICKLINK_* in the environment), on the
 * UTC day DAY (the clock starts at that day's first second). Prints, with CLOCK_MONOTONIC times:
 *   me PID START_TICKS
 *   start JOB T           a run of the job begins
 *   ask TYPE NO T         a call, counted already, is about to be sent
 *   answer TYPE NO T      …and answered
 *   lost JOB T            a step (or the completion, or the deferral) found the job no longer ours
 *   end JOB T             the run's handler returned (or threw)
 *   result JOB OUTCOME    how each run ended (done, deferred, failed:CODE, stopped), once idle
 * argv: STORE DAY API_URL
 */
import type { Clock } from '../../src/platform/clock.ts';
import { writeSession } from '../../src/store/session.ts';
import { BrickLinkApi } from '../../src/catalogue/bricklink/api.ts';
import { LOOKUP_JOB_KIND, lookupHandler, lookupHasWork } from '../../src/catalogue/lookup-job.ts';
import { Source } from '../../src/catalogue/source.ts';
import type { JobContext } from '../../src/jobs/runner.ts';
import { JobRunner } from '../../src/jobs/runner.ts';
import { openStore } from '../../src/store/open.ts';

const [storePath, day, apiUrl] = process.argv.slice(2);
if (!storePath || !day || !apiUrl) throw new Error('usage: lookup-worker STORE DAY API_URL');
const now = () => process.hrtime.bigint().toString();
const say = (line: string) => process.stdout.write(`${line}\n`);

const base = Date.parse(`${day}T00:00:01.000Z`);
const t0 = performance.now();
const clock: Clock = { now: () => new Date(base + (performance.now() - t0)) };

const env = (name: string) => {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is not set`);
  return v;
};
const api = new BrickLinkApi(apiUrl, {
  consumerKey: env('BRICKLINK_CONSUMER_KEY'),
  consumerSecret: env('BRICKLINK_CONSUMER_SECRET'),
  token: env('BRICKLINK_TOKEN'),
  tokenSecret: env('BRICKLINK_TOKEN_SECRET'),
});

const store = await openStore(storePath);
const db = store.db;
const source = new Source(db, clock, {
  fetchItem: async (type, no) => {
    say(`ask ${type} ${no} ${now()}`);
    const answer = await api.fetchItem(type, no);
    say(`answer ${type} ${no} ${now()}`);
    return answer;
  },
  fetchColours: () => api.fetchColours(),
});
const inner = lookupHandler(source, { clock });
const runner = new JobRunner({
  session: writeSession(db),
  clock,
  handlers: {
    [LOOKUP_JOB_KIND]: async (job, ctx) => {
      say(`start ${job.id} ${now()}`);
      const lost =
        <A extends unknown[]>(f: (...a: A) => boolean) =>
        (...a: A) => {
          const ok = f(...a);
          if (!ok) say(`lost ${job.id} ${now()}`);
          return ok;
        };
      const watched: JobContext = {
        db: ctx.db,
        clock: ctx.clock,
        step: lost(ctx.step),
        complete: lost(ctx.complete),
        defer: lost(ctx.defer),
      };
      try {
        await inner(job, watched);
      } finally {
        say(`end ${job.id} ${now()}`);
      }
    },
  },
  ready: { [LOOKUP_JOB_KIND]: lookupHasWork },
});
say(`me ${runner.me.pid} ${runner.me.startTicks}`);
for (const r of await runner.runUntilIdle()) say(`result ${r.job.id} ${r.outcome}${r.error ? `:${r.error.code}` : ''}`);
store.close();
