/**
 * A job worker for the race and fault-injection tests: claims `chaos` jobs from the store until none
 * is left to take, running each in small committed steps. Every run is logged to its own file with
 * CLOCK_MONOTONIC times (the same clock in every process), so the test can check that no two runs of
 * one job overlap. argv: STORE LOG [GO_FILE]
 */
import fs from 'node:fs';
import type Database from 'better-sqlite3';
import { JobRunner } from '../../src/jobs/runner.ts';
import { openStore } from '../../src/store/open.ts';

const [storePath, logPath, goFile] = process.argv.slice(2);
if (!storePath || !logPath) throw new Error('usage: job-worker STORE LOG [GO_FILE]');

const now = () => process.hrtime.bigint().toString();
const log = (line: string) => fs.appendFileSync(logPath, `${line}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const store = await openStore(storePath);
const db: Database.Database = store.db;
const effect = db.prepare('INSERT INTO chaos_effect (job_id, pid) VALUES (?, ?)');

const runner = new JobRunner({
  db,
  handlers: {
    async chaos(job, ctx) {
      log(`start ${job.id} ${process.pid} ${now()}`);
      const { steps, stepMs } = job.payload as { steps: number; stepMs: number };
      for (let i = job.progress.done; i < steps; i++) {
        await sleep(1 + Math.random() * stepMs);
        if (!ctx.step(null, { done: i + 1, total: steps })) return;
      }
      if (ctx.complete(() => effect.run(job.id, process.pid))) log(`end ${job.id} ${process.pid} ${now()}`);
    },
  },
});

process.stdout.write('ready\n');
if (goFile) while (!fs.existsSync(goFile)) await sleep(1);
await runner.runUntilIdle();
store.close();
