import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import type { ApiEvents, EventName } from '../../src/api/contract.ts';
import { startCore } from '../../src/app/core.ts';
import { bytes, files } from '../helpers/catalogue-files.ts';
import { tempDir } from '../helpers/temp.ts';
import { openStore } from '../../src/store/open.ts';
import { SYSTEM_CLOCK } from '../../src/platform/clock.ts';
import { identityOf } from '../../src/identity/owner.ts';
import { releaseOwnJobs } from '../../src/jobs/queue.ts';
import { CatalogueJob, failOwnCatalogueJob, readCatalogueJob } from '../../src/catalogue/catalogue-job.ts';
import { catalogueJobPath } from '../../src/store/catalogue-job-file.ts';
import { insertJob, insertJobOwner } from '../helpers/store-builder.ts';
import { holdLock } from '../helpers/soak-lock.ts';
import { JobHost } from '../../src/app/job-host.ts';
import { anotherLife } from '../helpers/owners.ts';

/**
 * Issue 26, point 2: a job runner thread that stops is started again by itself, says why, and the load it
 * had is told as failed in words — never left "started" with nothing running.
 */
describe('the job runner thread, stopped', () => {
  it('is started again (the log says why), its load is told as failed, and the next load runs', async () => {
    const storePath = path.join(tempDir(), 'brick-work.sqlite');
    (await openStore(storePath)).close();
    const events: { name: EventName; payload: unknown }[] = [];
    const logs: string[] = [];
    const core = await startCore({
      storePath,
      workerUrl: new URL('../workers/crash-once-runner.ts', import.meta.url),
      serviceWorkerUrl: new URL('../../src/app/service-thread.ts', import.meta.url),
      credentials: { encrypted: false, get: () => null, set: () => {} },
      files: null,
      emit: (name, payload) => events.push({ name, payload }),
      log: (line) => logs.push(line),
    });
    onTestFinished(() => core.close());
    const parts = { name: 'parts.csv', content: bytes(files.rebrickableParts([{ no: '3001', name: 'Brick 2 x 4' }])) };
    expect(await core.service.call('catalogue.load', { files: [parts] })).toMatchObject({ ok: true });
    const progress = () =>
      events.flatMap((e) => (e.name === 'job.progress' ? [e.payload as ApiEvents['job.progress']] : []));
    const until = async (what: string, test: () => boolean) => {
      for (let i = 0; i < 300 && !test(); i++) await new Promise((r) => setTimeout(r, 50));
      expect(test(), what).toBe(true);
    };
    await until('the load told as failed', () =>
      progress().some((p) => p.state.startsWith('failed: brick-work’s job runner stopped')),
    );
    await until('the log says why', () =>
      logs.some((l) => /the job runner stopped \(exit code 1\); it starts again in 1 s/.test(l)),
    );
    await until('started again', () => fs.readFileSync(`${storePath}.runner-starts`, 'utf8').length === 2);
    // The next load runs on the new thread.
    expect(await core.service.call('catalogue.load', { files: [parts] })).toMatchObject({ ok: true });
    await until('loaded', () => progress().some((p) => p.kind === 'catalogue-load' && p.state === 'done'));
    expect(await core.service.call('catalogue.status', {})).toMatchObject({ ok: true, value: { items: 1 } });
  }, 30_000);
});

describe('what a stopped runner thread had (its process lives on)', () => {
  it('its look-up jobs are queued again, saying so; its catalogue job ends as failed, saying why; others’ stay', async () => {
    const storePath = path.join(tempDir(), 'brick-work.sqlite');
    const store = await openStore(storePath);
    onTestFinished(() => store.close());
    const { db } = store;
    const me = identityOf();
    const mine = insertJob(db, { kind: 'catalogue-lookup', state: 'running' });
    insertJobOwner(db, { jobId: mine, pid: me.pid, identity: { bootId: me.bootId, startTicks: me.startTicks } });
    const theirs = insertJob(db, { kind: 'catalogue-lookup', state: 'running' });
    insertJobOwner(db, { jobId: theirs, pid: 1, identity: anotherLife({ ...me, pid: 1 }) });
    expect(releaseOwnJobs(db, me, { clock: SYSTEM_CLOCK })).toEqual([
      { id: mine, kind: 'catalogue-lookup', deadOwner: me },
    ]);
    expect(db.prepare('SELECT id, state FROM job ORDER BY id').all()).toEqual([
      { id: mine, state: 'queued' },
      { id: theirs, state: 'running' },
    ]);
    expect(
      db.prepare("SELECT count(*) FROM job_event WHERE job_id = ? AND event = 'recovered'").pluck().get(mine),
    ).toBe(1);

    CatalogueJob.start(db, storePath, 'catalogue-load', {}, { me, clock: SYSTEM_CLOCK });
    expect(failOwnCatalogueJob(db, storePath, anotherLife(me), { clock: SYSTEM_CLOCK })).toBe(false);
    expect(failOwnCatalogueJob(db, storePath, me, { clock: SYSTEM_CLOCK })).toBe(true);
    expect(readCatalogueJob(catalogueJobPath(storePath))).toMatchObject({
      record: { state: 'failed', error: expect.stringContaining('job runner stopped while it loaded') as string },
    });
  });

  it('can’t open the store while another process holds its write lock: it says why, starts again, and the load handed to it runs', async () => {
    const dir = tempDir();
    const storePath = path.join(dir, 'brick-work.sqlite');
    const store = await openStore(storePath);
    onTestFinished(() => store.close());
    // A store with a repair still to do: its read-write open needs the write lock (a settled store's takes
    // none, so another process's long write never keeps it from opening).
    store.db.prepare("DELETE FROM setting WHERE key LIKE 'fixup.%'").run();
    // Held before the runner thread opens the store, and past the busy timeout.
    const holder = await holdLock(storePath);
    onTestFinished(() => void holder.kill('SIGKILL'));
    const logs: string[] = [];
    const events: { name: EventName; payload: unknown }[] = [];
    const host = new JobHost({
      db: store.db,
      storePath,
      desk: 'SHOP-1',
      clock: SYSTEM_CLOCK,
      workerUrl: new URL('../../src/app/runner-thread.ts', import.meta.url),
      emit: (name, payload) => events.push({ name, payload }),
      log: (line) => logs.push(line),
    });
    onTestFinished(() => host.stop());
    const parts = { name: 'parts.csv', content: bytes(files.rebrickableParts([{ no: '3001', name: 'Brick 2 x 4' }])) };
    host.startCatalogueLoad([parts], 'P');
    const until = async (what: string, test: () => boolean, ms: number) => {
      for (let i = 0; i < ms / 50 && !test(); i++) await new Promise((r) => setTimeout(r, 50));
      expect(test(), `${what}; the log: ${logs.join(' | ')}`).toBe(true);
    };
    await until(
      'the log says why, in words',
      () => logs.some((l) => l.includes('the job runner could not open the store: Another brick-work is writing')),
      20_000,
    );
    expect(logs.filter((l) => /stopped: /.test(l))).toEqual([]);
    holder.kill('SIGKILL');
    await until(
      'the load handed over meanwhile runs once the lock is free',
      () => events.some((e) => e.name === 'job.progress' && (e.payload as ApiEvents['job.progress']).state === 'done'),
      20_000,
    );
  }, 60_000);
});
