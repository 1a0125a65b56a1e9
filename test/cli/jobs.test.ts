import { spawn } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { identityOf } from '../../src/identity/owner.ts';
import { cliJson, REPO_ROOT } from '../helpers/cli.ts';
import { buildStore, insertJob, insertJobOwner } from '../helpers/store-builder.ts';
import { sha256, tempDir } from '../helpers/temp.ts';
import { needs } from '../helpers/needs.ts';
import { NEEDS_FAKETIME, workingFaketime } from '../helpers/programs.ts';
import { anotherLife } from '../helpers/owners.ts';

/** Debian's faketime, or Homebrew's libfaketime on a Mac, where it moves node's clock. */
const FAKETIME = workingFaketime();

/** A 4.2 store with a job for each kind of owner. */
function storeWithJobs(): {
  file: string;
  ids: { queued: number; live: number; restarted: number; before42: number };
  live: ReturnType<typeof identityOf>;
} {
  const file = path.join(tempDir(), 'brick-work.sqlite');
  const sleeper = spawn('sleep', ['60'], { stdio: 'ignore' });
  onTestFinished(() => {
    sleeper.kill('SIGKILL');
  });
  const live = identityOf(sleeper.pid);
  const db = buildStore(file, '4.2');
  const ids = {
    queued: insertJob(db, { kind: 'catalogue-lookup' }),
    live: insertJob(db, { kind: 'catalogue-lookup', state: 'running' }),
    restarted: insertJob(db, { kind: 'catalogue-lookup', state: 'running' }),
    before42: insertJob(db, { kind: 'catalogue-lookup', state: 'running' }),
  };
  insertJobOwner(db, {
    jobId: ids.live,
    pid: live.pid,
    identity: { bootId: live.bootId, startTicks: live.startTicks },
  });
  insertJobOwner(db, {
    jobId: ids.restarted,
    pid: live.pid,
    identity: anotherLife(live, -7),
  });
  insertJobOwner(db, { jobId: ids.before42, pid: live.pid, identity: { bootId: null, startTicks: null } });
  db.close();
  return { file, ids, live };
}

describe('brick-work jobs …', () => {
  it('jobs --json lists each job with its owner and whether it is alive, and recovers nothing', async () => {
    const { file, ids, live } = storeWithJobs();
    const hash = sha256(file);
    const r = await cliJson(['--db', file, 'jobs']);
    expect(r.code).toBe(0);
    const byId = new Map((r.json.jobs as { id: number }[]).map((j) => [j.id, j]));
    expect(byId.get(ids.queued)).toMatchObject({ kind: 'catalogue-lookup', state: 'queued', owner: null, alive: null });
    expect(byId.get(ids.live)).toMatchObject({
      state: 'running',
      owner: { pid: live.pid, bootId: live.bootId, startTicks: live.startTicks },
      alive: true,
    });
    expect(byId.get(ids.restarted)).toMatchObject({ state: 'running', alive: false });
    expect(byId.get(ids.before42)).toMatchObject({
      state: 'running',
      owner: { bootId: null, startTicks: null },
      alive: false,
    });
    expect(r.json).toMatchObject({ catalogueJob: null, catalogueJobProblem: null });
    expect(sha256(file)).toBe(hash); // the CLI recovers only when told
  });

  it('jobs recover --json requeues the dead owners’ jobs and names them', async () => {
    const { file, ids } = storeWithJobs();
    const r = await cliJson(['--db', file, 'jobs', 'recover']);
    expect(r.code).toBe(0);
    expect(r.json).toEqual({ catalogueJob: null, recovered: [ids.restarted, ids.before42] });
    const after = await cliJson(['--db', file, 'jobs']);
    const states = Object.fromEntries(
      (after.json.jobs as { id: number; state: string; recoveries: number }[]).map((j) => [
        j.id,
        [j.state, j.recoveries],
      ]),
    );
    expect(states).toEqual({
      [ids.queued]: ['queued', 0],
      [ids.live]: ['running', 0],
      [ids.restarted]: ['queued', 1],
      [ids.before42]: ['queued', 1],
    });
    expect((await cliJson(['--db', file, 'jobs', 'recover'])).json).toEqual({ recovered: [], catalogueJob: null });
  });

  it('jobs cancel ID cancels a queued or running job and refuses a finished or missing one', async () => {
    const { file, ids } = storeWithJobs();
    expect((await cliJson(['--db', file, 'jobs', 'cancel', String(ids.queued)])).json).toEqual({
      cancelled: ids.queued,
      was: 'queued',
    });
    const again = await cliJson(['--db', file, 'jobs', 'cancel', String(ids.queued)]);
    expect(again.code).toBe(1);
    expect(again.json.error).toMatchObject({ code: 'not-found' });
    expect(again.json.error.message).toContain('cancelled');
    expect((await cliJson(['--db', file, 'jobs', 'cancel', '9999'])).json.error.code).toBe('not-found');
    expect((await cliJson(['--db', file, 'jobs', 'cancel', 'soon'])).code).toBe(2);
    expect((await cliJson(['--db', file, 'jobs', 'cancel', 'catalogue'])).json.error.code).toBe('not-found');
  });

  it('jobs on a 4.1 store is refused with needs-upgrade, read-only', async () => {
    const file = path.join(tempDir(), 'brick-work.sqlite');
    buildStore(file, '4.1').close();
    const hash = sha256(file);
    const r = await cliJson(['--db', file, 'jobs']);
    expect(r.code).toBe(1);
    expect(r.json.error).toEqual({
      code: 'needs-upgrade',
      message: 'this store is schema 4.1; open it read-write once to upgrade it to 4.2',
    });
    expect(sha256(file)).toBe(hash);
  });

  it.runIf(needs(FAKETIME !== null, NEEDS_FAKETIME, 'liveness under faketime'))(
    'gives the same liveness answers under faketime a year ahead and a year behind (faketime)',
    async () => {
      const { file } = storeWithJobs();
      const run = (shift: string | null) =>
        new Promise<string>((resolve, reject) => {
          const args = [path.join(REPO_ROOT, 'bin', 'brick-work.js'), '--json', '--db', file, 'jobs'];
          const child =
            shift === null
              ? spawn(process.execPath, args)
              : spawn(FAKETIME ?? 'faketime', ['-f', shift, process.execPath, ...args]);
          let out = '';
          child.stdout.on('data', (d: Buffer) => (out += d.toString()));
          child.on('error', reject);
          child.on('close', () => resolve(out));
        });
      const answers = async (shift: string | null) =>
        (JSON.parse(await run(shift)).jobs as { id: number; alive: boolean | null }[]).map((j) => [j.id, j.alive]);
      const now = await answers(null);
      expect(now.map(([, a]) => a)).toEqual([null, true, false, false]);
      expect(await answers('+365d')).toEqual(now);
      expect(await answers('-365d')).toEqual(now);
    },
  );
});
