/**
 * A job worker for the race and fault-injection tests: claims `chaos` jobs from the store until none
 * is left to take, running each in small committed steps; its one effect is committed with its
 * completion. Prints on stdout (synchronous on Linux, so a line printed is a line the harness gets,
 * whenever the worker is killed), with CLOCK_MONOTONIC times (the same clock in every process):
 *   me PID START_TICKS               its owner identity, first
 *   start JOB PID T                  a run begins
 *   end JOB PID T                    …and committed its effect and its end
 *   lost JOB PID T step|complete     a step or the completion found the job no longer ours: it stops
 * argv: STORE [GO_FILE]
 */
import fs from 'node:fs';
import { writeSession } from '../../src/store/session.ts';
import { JobRunner } from '../../src/jobs/runner.ts';
import { openStore } from '../../src/store/open.ts';

const [storePath, goFile] = process.argv.slice(2);
if (!storePath) throw new Error('usage: job-worker STORE [GO_FILE]');

const now = () => process.hrtime.bigint().toString();
const say = (line: string) => process.stdout.write(`${line}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const store = await openStore(storePath);
const db = store.db;
const effect = db.prepare('INSERT INTO chaos_effect (job_id, key, pid) VALUES (?, ?, ?)');

const runner = new JobRunner({
  session: writeSession(db),
  handlers: {
    async chaos(job, ctx) {
      say(`start ${job.id} ${process.pid} ${now()}`);
      const { key, steps, stepMs } = job.payload as { key: number; steps: number; stepMs: number };
      for (let i = job.progress.done; i < steps; i++) {
        await sleep(1 + Math.random() * stepMs);
        if (!ctx.step(null, { done: i + 1, total: steps })) {
          say(`lost ${job.id} ${process.pid} ${now()} step`);
          return;
        }
      }
      if (ctx.complete(() => effect.run(job.id, key, process.pid))) say(`end ${job.id} ${process.pid} ${now()}`);
      else say(`lost ${job.id} ${process.pid} ${now()} complete`);
    },
  },
});

say(`me ${runner.me.pid} ${runner.me.startTicks}`);
say('ready');
if (goFile) while (!fs.existsSync(goFile)) await sleep(1);
await runner.runUntilIdle();
store.close();
