import os from 'node:os';
import { writeSession } from '../../src/store/session.ts';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { shiftedClock, SYSTEM_CLOCK } from '../../src/platform/clock.ts';
import { CatalogueJob, catalogueJobStatus } from '../../src/catalogue/catalogue-job.ts';
import { claimJob, claimNext, enqueueJob, getJob, reportProgress, whileOwner } from '../../src/jobs/queue.ts';
import { JobRunner } from '../../src/jobs/runner.ts';
import { openStore, type Store } from '../../src/store/open.ts';
import { connectionOwner, ownerAlive, ownerPlace } from '../../src/store/owners.ts';
import { cli, cliJson } from '../helpers/cli.ts';
import { needs } from '../helpers/needs.ts';
import { hasPostgres, NEEDS_POSTGRES, startPostgres, type PostgresServer } from '../helpers/postgres.ts';

const clock = SYSTEM_CLOCK;
const YEAR = 365 * 24 * 3600 * 1000;

// Issue 29, SPEC §14 (ADR 0027 §5): on a server, a job's owner is the desk's server session — its
// backend pid and backend_start, compared exactly; alive only while the session exists.
describe.runIf(needs(hasPostgres(), NEEDS_POSTGRES, 'job owners as server sessions'))(
  'job owners on a PostgreSQL server are server sessions',
  () => {
    let server: PostgresServer;
    let n = 0;
    beforeAll(async () => {
      server = await startPostgres({ own: true });
    }, 60_000);
    afterAll(() => server?.close());

    /** Two desks on one new store: two connections, so two sessions. */
    async function desks(): Promise<{ url: string; name: string; a: Store; b: Store }> {
      const name = `owners_${++n}`;
      server.createDatabase(name);
      const url = server.url(name);
      const a = await openStore(url);
      const b = await openStore(url);
      onTestFinished(() => {
        a.close();
        b.close();
      });
      return { url, name, a, b };
    }

    const cut = (name: string, pid: number) =>
      server.sql(name, `SELECT pg_terminate_backend(${pid})`) === 't' &&
      // the server ends it at once; wait until it is gone from pg_stat_activity
      (() => {
        for (let i = 0; i < 100; i++) {
          if (server.sql(name, `SELECT count(*) FROM pg_stat_activity WHERE pid = ${pid}`) === '0') return true;
          Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
        }
        return false;
      })();

    it('names the session exactly: pid, the cluster, and its start in whole microseconds', async () => {
      const { name, a, b } = await desks();
      const ownerA = connectionOwner(a.db);
      const ownerB = connectionOwner(b.db);
      expect(ownerA.bootId).toMatch(/^postgres:\d+$/);
      expect(ownerA.bootId).toBe(ownerB.bootId);
      expect(ownerA.pid).not.toBe(ownerB.pid);
      expect(Number.isSafeInteger(ownerA.startTicks)).toBe(true);
      expect(
        Number(
          server.sql(
            name,
            `SELECT (extract(epoch FROM date_trunc('second', backend_start))::int8 * 1000000 + extract(microseconds FROM backend_start)::int8 % 1000000) FROM pg_stat_activity WHERE pid = ${ownerA.pid}`,
          ),
        ),
      ).toBe(ownerA.startTicks);
      expect(ownerAlive(b.db, ownerA)).toBe(true);
      // Off by one microsecond, or another cluster: not the same session.
      expect(ownerAlive(b.db, { ...ownerA, startTicks: (ownerA.startTicks ?? 0) + 1 })).toBe(false);
      expect(ownerAlive(b.db, { ...ownerA, bootId: 'postgres:1' })).toBe(false);
    });

    it("a live desk's job is busy for another desk; once its session is cut, the next claim takes it over", async () => {
      const { name, a, b } = await desks();
      const id = enqueueJob(a.db, 'work', {}, { clock });
      const ownerA = connectionOwner(a.db);
      const claimed = claimJob(writeSession(a.db), id, ownerA, { clock });
      expect(claimed.owner).toEqual(ownerA);
      expect(claimNext(writeSession(b.db), connectionOwner(b.db), { clock })).toBeNull();
      expect(() => claimJob(writeSession(b.db), id, connectionOwner(b.db), { clock })).toThrow(
        expect.objectContaining({ code: 'busy' }),
      );
      expect(getJob(b.db, id)?.alive).toBe(true);

      expect(cut(name, ownerA.pid)).toBe(true);
      expect(getJob(b.db, id)?.alive).toBe(false);
      const taken = claimNext(writeSession(b.db), connectionOwner(b.db), { clock });
      expect(taken).toMatchObject({ id, takenFrom: ownerA, owner: connectionOwner(b.db) });

      // Desk A connects again by itself, as a new session: it is not the owner any more, so its
      // compare-and-set fails and it stops; nothing it meant to do is written.
      expect(connectionOwner(a.db)).not.toEqual(ownerA);
      expect(reportProgress(a.db, id, ownerA, { done: 1, total: 2 }, { clock })).toBe(false);
      expect(
        whileOwner(a.db, id, ownerA, () =>
          a.db.prepare("INSERT INTO setting (key, value) VALUES ('a', 'wrote')").run(),
        ),
      ).toBe(false);
      expect(a.db.prepare("SELECT count(*) FROM setting WHERE key = 'a'").pluck().get()).toBe(0);
      expect(getJob(a.db, id)?.owner).toEqual(connectionOwner(b.db));
    });

    // The jobs list: a desk's own running job is "running in this app", whichever of its connections
    // claimed it; on another desk it names the computer, not the server's process number.
    it("the jobs list says which desk runs a job: this app's own, or the computer of another's", async () => {
      const { url, name, a, b } = await desks();
      const id = enqueueJob(a.db, 'work', {}, { clock });
      const ownerA = connectionOwner(a.db);
      claimJob(writeSession(a.db), id, ownerA, { clock });
      // Another connection of this process (the screens' beside the runner's) knows the job as its own.
      expect(ownerPlace(b.db, ownerA)).toEqual({ here: true, desk: os.hostname() });
      // Another brick-work (a process of its own, here the CLI) on the same server.
      const listed = await cliJson(['jobs', '--db', url]);
      expect(listed.json.jobs).toEqual([
        expect.objectContaining({ id, state: 'running', alive: true, ownedHere: false, desk: os.hostname() }),
      ]);
      const text = await cli(['jobs', '--db', url]);
      expect(text.stdout).toContain(`desk "${os.hostname()}" (alive)`);
      expect(text.stdout).not.toMatch(/pid \d/);
      // Once its session is gone the job is no one's, here or elsewhere — and still said to be that desk's.
      expect(cut(name, ownerA.pid)).toBe(true);
      expect(ownerPlace(b.db, ownerA)).toEqual({ here: false, desk: null });
      expect((await cli(['jobs', '--db', url])).stdout).toContain(`desk "${os.hostname()}" (gone)`);
    });

    // A shop may give each desk a login of its own. The server then hides a session's start from another
    // role (pg_stat_activity says NULL): the other desk can't tell the owner exactly, and must not take
    // a live desk's job over for it — that would run it twice.
    it("desks logged in as different roles: a live desk's job stays busy for the other; once cut, it is taken over", async () => {
      const name = `owners_${++n}`;
      server.createDatabase(name);
      (await openStore(server.url(name))).close();
      server.sql(
        name,
        `CREATE ROLE desk_a_${n} LOGIN; CREATE ROLE desk_b_${n} LOGIN;
         GRANT ALL ON ALL TABLES IN SCHEMA public TO desk_a_${n}, desk_b_${n};
         GRANT ALL ON ALL SEQUENCES IN SCHEMA public TO desk_a_${n}, desk_b_${n}`,
      );
      const as = (role: string) => server.url(name).replace('postgres://brick_work@', `postgres://${role}_${n}@`);
      const a = await openStore(as('desk_a'));
      const b = await openStore(as('desk_b'));
      onTestFinished(() => {
        a.close();
        b.close();
      });
      const id = enqueueJob(a.db, 'work', {}, { clock });
      const ownerA = connectionOwner(a.db);
      claimJob(writeSession(a.db), id, ownerA, { clock });
      expect(server.sql(name, `SELECT usename FROM pg_stat_activity WHERE pid = ${ownerA.pid}`)).toBe(`desk_a_${n}`);
      expect(ownerAlive(b.db, ownerA)).toBe(true);
      expect(claimNext(writeSession(b.db), connectionOwner(b.db), { clock })).toBeNull();
      expect(getJob(b.db, id)?.owner).toEqual(ownerA);
      expect(cut(name, ownerA.pid)).toBe(true);
      expect(ownerAlive(b.db, ownerA)).toBe(false);
      expect(claimNext(writeSession(b.db), connectionOwner(b.db), { clock })).toMatchObject({ id, takenFrom: ownerA });
    });

    it('a cut runner of its own job stops, even before anyone takes the job over', async () => {
      const { name, a } = await desks();
      const id = enqueueJob(a.db, 'work', {}, { clock });
      const me = connectionOwner(a.db);
      claimJob(writeSession(a.db), id, me, { clock });
      expect(reportProgress(a.db, id, me, { done: 1, total: 3 }, { clock })).toBe(true);
      cut(name, me.pid);
      expect(reportProgress(a.db, id, me, { done: 2, total: 3 }, { clock })).toBe(false);
      expect(getJob(a.db, id)?.progress).toEqual({ done: 1, total: 3 });
    });

    // The app's job runner thread names its owner once, at its start. The soak's PostgreSQL kind found
    // that after a cut such a runner claimed in its dead session's name: its first write failed, and the
    // next claim took the job again from that dead name — for ever.
    it('a runner named before its connection was cut claims as its new session, and runs the job', async () => {
      const { name, a } = await desks();
      const before = connectionOwner(a.db);
      let runs = 0;
      const runner = new JobRunner({
        session: writeSession(a.db),
        me: before,
        handlers: {
          work: (_job, ctx) => {
            runs += 1;
            ctx.step(null, { done: 1, total: 1 });
          },
        },
      });
      cut(name, before.pid);
      const id = enqueueJob(a.db, 'work', {}, { clock });
      const ran = await runner.runNext();
      expect(ran).toMatchObject({ outcome: 'done', error: null });
      expect(ran?.job.owner).toEqual(connectionOwner(a.db));
      expect(ran?.job.owner).not.toEqual(before);
      expect(runs).toBe(1);
      expect(getJob(a.db, id)).toMatchObject({ state: 'done', owner: connectionOwner(a.db) });
      expect(await runner.runNext()).toBeNull();

      // The catalogue job too: started in the new session's name, so its progress is its own.
      const { job } = CatalogueJob.start(a.db, server.url(name), 'catalogue-load', {}, { me: before, clock });
      expect(job.state.owner).toEqual(connectionOwner(a.db));
      expect(job.progress({ done: 1, total: 1 })).toBe(true);
      expect(job.finish('done')).toBe(true);
    });

    it('no clock takes part: moved a year either way, the answers are the same', async () => {
      const { name, a, b } = await desks();
      const ownerA = connectionOwner(a.db);
      for (const shift of [-YEAR, YEAR]) {
        const moved = shiftedClock(shift);
        const id = enqueueJob(a.db, 'work', {}, { clock: moved });
        claimJob(writeSession(a.db), id, ownerA, { clock: moved });
        expect(() => claimJob(writeSession(b.db), id, connectionOwner(b.db), { clock: moved })).toThrow(
          expect.objectContaining({ code: 'busy' }),
        );
      }
      cut(name, ownerA.pid);
      for (const shift of [-YEAR, YEAR]) {
        expect(claimNext(writeSession(b.db), connectionOwner(b.db), { clock: shiftedClock(shift) })).not.toBeNull();
      }
    });

    it("the catalogue job's state is a row: busy while its desk's session lives, free once it is cut", async () => {
      const { url, name, a, b } = await desks();
      const { job } = CatalogueJob.start(
        a.db,
        url,
        'catalogue-load',
        { files: ['parts.csv'] },
        {
          me: connectionOwner(a.db),
          clock,
        },
      );
      expect(job.progress({ done: 1, total: 2 })).toBe(true);
      expect(server.sql(name, 'SELECT count(*) FROM catalogue_job_state')).toBe('1');
      expect(catalogueJobStatus(b.db, url)).toMatchObject({ alive: true, record: { state: 'running' } });
      expect(() => CatalogueJob.start(b.db, url, 'catalogue-load', {}, { me: connectionOwner(b.db), clock })).toThrow(
        expect.objectContaining({ code: 'busy' }),
      );
      cut(name, connectionOwner(a.db).pid);
      expect(catalogueJobStatus(b.db, url).alive).toBe(false);
      // The cut desk's job can't go on: its new session is not the owner. It says why (issue 61 §4): a
      // cut is a failed load, never one staff cancelled.
      expect(() => job.progress({ done: 2, total: 2 })).toThrow(
        expect.objectContaining({ code: 'store-unreachable', message: expect.stringMatching(/connection .*was cut/) }),
      );
      const next = CatalogueJob.start(b.db, url, 'catalogue-load', {}, { me: connectionOwner(b.db), clock });
      expect(next.job.finish('done')).toBe(true);
    });
  },
);
