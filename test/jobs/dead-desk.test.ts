/**
 * Issue 46, point 3 (SPEC §14): a desk (or process) that dies while it loads a catalogue writes nothing
 * as it dies, yet every other desk sees within 5 s, without a restart, that the load was abandoned: the
 * app tells its screens (`store.changed`), the Catalogue card's status says it failed and why, and a new
 * load is not refused as busy.
 */
import { expect, it, onTestFinished } from 'vitest';
import { writeSession } from '../../src/store/session.ts';
import type { EventName } from '../../src/api/contract.ts';
import { startCore } from '../../src/app/core.ts';
import { openStore } from '../../src/store/open.ts';
import { thisComputer } from '../../src/identity/desk.ts';
import { describeEachStore, newStoreLocation, storeKind } from '../helpers/stores.ts';
import { exited, lines, spawnWorker } from '../helpers/workers.ts';
import { cli } from '../helpers/cli.ts';
import { bytes, files } from '../helpers/catalogue-files.ts';
import { SYSTEM_CLOCK } from '../../src/platform/clock.ts';
import { claimNext, enqueueJob } from '../../src/jobs/queue.ts';
import { connectionOwner } from '../../src/store/owners.ts';
import { ownerWords } from '../../renderer/jobs-words.ts';

/** The app's core on `storePath`, its events kept with their times (closed when the test ends). */
async function watchingCore(storePath: string, more: Partial<Parameters<typeof startCore>[0]> = {}) {
  const events: { name: EventName; payload: unknown; at: number }[] = [];
  const core = await startCore({
    storePath,
    workerUrl: new URL('../../src/app/runner-thread.ts', import.meta.url),
    serviceWorkerUrl: new URL('../../src/app/service-thread.ts', import.meta.url),
    credentials: { encrypted: false, get: () => null, set: () => {} },
    files: null,
    emit: (name, payload) => events.push({ name, payload, at: Date.now() }),
    log: () => {},
    ...more,
  });
  onTestFinished(() => core.close());
  return { core, events };
}

/**
 * SIGKILLs `other` (it writes nothing as it dies) and waits up to 6 s for the screens to be told that a
 * desk or process running a job stopped: how long after the kill they were (Infinity: never).
 */
async function killedAndTold(
  other: ReturnType<typeof spawnWorker>,
  events: readonly { name: EventName; payload: unknown; at: number }[],
): Promise<number> {
  const killedAt = Date.now();
  other.kill('SIGKILL');
  await exited(other);
  const told = () =>
    events.find(
      (e) =>
        e.at >= killedAt &&
        e.name === 'store.changed' &&
        (e.payload as { reason: string }).reason === 'a desk or process running a job stopped',
    );
  for (let i = 0; i < 120 && told() === undefined; i++) await new Promise((r) => setTimeout(r, 50));
  return (told()?.at ?? Infinity) - killedAt;
}

describeEachStore('a desk that dies mid-load, seen by another (issue 46, point 3)', () => {
  it('within 5 s and without a restart: the screens are told, the load is failed in words, Load is free', async () => {
    const storePath = newStoreLocation();
    (await openStore(storePath)).close();
    const { core, events } = await watchingCore(storePath);
    const status = async () => {
      const a = await core.service.call('catalogue.status', {});
      if (!a.ok) throw new Error(a.error.message);
      return a.value.job;
    };

    // Another desk (a process of its own) holds the store's catalogue job, loading.
    const other = spawnWorker('catalogue-job-worker', [storePath, '600000']);
    await lines(other).waitFor(/^started/);
    expect(await status()).toMatchObject({ state: 'running', alive: true });
    const busy = await core.service.call('catalogue.load', {
      files: [{ name: 'parts.csv', content: new Uint8Array() }],
    });
    expect(!busy.ok && busy.error.code).toBe('busy');
    if (storeKind() === 'postgres') expect(!busy.ok && busy.error.message).toContain(`the desk "${thisComputer()}"`);

    // It dies, writing nothing as it goes.
    expect(await killedAndTold(other, events), 'the screens were told within 5 s').toBeLessThan(5_000);
    // Said by who was loading: on a server the desk by its name, never its session's number.
    const after = await status();
    expect(after).toMatchObject({ state: 'failed', alive: false });
    expect(after?.error).toMatch(/^It stopped: .*, which was loading it, is gone .*Load the files again\.$/);
    if (storeKind() === 'postgres') {
      expect(after?.error).toContain(`the desk "${thisComputer()}"`);
      expect(after?.error).not.toMatch(/pid|process \d/);
    }
  });

  it("a queued job's claim names its desk: alive or killed, words say which desk, never a server session as a process; the next claim takes it over", async () => {
    const storePath = newStoreLocation();
    const setup = await openStore(storePath);
    onTestFinished(() => setup.close());
    const jobId = enqueueJob(setup.db, 'held', {}, { clock: SYSTEM_CLOCK });
    // Named in Settings (kept here in memory), as the app's desk is.
    let kept: string | null = 'SHOP-1';
    const { core, events } = await watchingCore(storePath, {
      deskName: { get: () => kept, set: (name) => void (kept = name) },
    });
    const job = async () => {
      const a = await core.service.call('jobs.list', {});
      if (!a.ok) throw new Error(a.error.message);
      return a.value.find((j) => j.id === jobId);
    };
    const server = storeKind() === 'postgres';

    // Desk SHOP-2's runner claims it and is killed while it runs it.
    const other = spawnWorker('claim-and-hold', [storePath, 'held'], {
      env: { ...process.env, BRICK_WORK_DESK: 'SHOP-2' },
    });
    await lines(other).waitFor(/^claimed/);
    const running = await job();
    expect(running).toMatchObject({ state: 'running', alive: true, ownedHere: false, desk: server ? 'SHOP-2' : null });
    expect(ownerWords(running!)).toMatch(
      server ? /^running on the desk "SHOP-2" since/ : /^running in another brick-work \(process \d+\) since/,
    );
    expect(await killedAndTold(other, events), 'the screens were told within 5 s').toBeLessThan(5_000);
    const gone = await job();
    expect(gone).toMatchObject({ state: 'running', alive: false, desk: server ? 'SHOP-2' : null });
    expect(ownerWords(gone!)).toBe(
      server
        ? 'left running by the desk "SHOP-2", whose brick-work stopped; it is taken up again by itself'
        : 'left running by a desk or process that is gone; it is taken up again by itself',
    );
    if (server) {
      const listed = await cli(['jobs'], { BRICK_WORK_DB: storePath });
      expect(listed.stdout).toMatch(new RegExp(`^\\s*${jobId} +held +running +desk "SHOP-2" \\(gone\\)`, 'm'));
      expect(listed.stdout).not.toMatch(/pid \d/);
    }

    // The next claim takes it over, and the words follow the new desk.
    const taken = claimNext(writeSession(setup.db, 'SHOP-3'), connectionOwner(setup.db), {
      clock: SYSTEM_CLOCK,
      kinds: ['held'],
    });
    expect(taken).toMatchObject({ id: jobId, takenFrom: expect.anything() });
    expect(await job()).toMatchObject({ alive: true, desk: server ? 'SHOP-3' : null });

    // This app's own job runner records this desk's name — and, once renamed in Settings, the new one.
    const loadAndRead = async () => {
      const before = await core.service.call('catalogue.status', {});
      const last = before.ok ? (before.value.job?.updatedAt ?? null) : null;
      const started = await core.service.call('catalogue.load', {
        files: [{ name: 'parts.csv', content: bytes(files.rebrickableParts([{ no: '3001', name: 'Brick 2 x 4' }])) }],
      });
      if (!started.ok) throw new Error(`${started.error.code}: ${started.error.message}`);
      for (let i = 0; i < 200; i++) {
        const a = await core.service.call('catalogue.status', {});
        // This load's record, not the one before it (the call answers as the load starts).
        if (a.ok && a.value.job?.state === 'done' && a.value.job.updatedAt !== last) return a.value.job.desk;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error('the load did not finish');
    };
    expect(await loadAndRead()).toBe('SHOP-1');
    expect((await core.service.call('desk.set', { name: 'SHOP-9' })).ok).toBe(true);
    expect(await loadAndRead()).toBe('SHOP-9');
  });
});
