/**
 * Issue 46, point 3 (SPEC §14): a desk (or process) that dies while it loads a catalogue writes nothing
 * as it dies, yet every other desk sees within 5 s, without a restart, that the load was abandoned: the
 * app tells its screens (`store.changed`), the Catalogue card's status says it failed and why, and a new
 * load is not refused as busy.
 */
import { expect, it, onTestFinished } from 'vitest';
import type { EventName } from '../../src/api/contract.ts';
import { startCore } from '../../src/app/core.ts';
import { openStore } from '../../src/store/open.ts';
import { thisComputer } from '../../src/undo/desk.ts';
import { describeEachStore, newStoreLocation, storeKind } from '../helpers/stores.ts';
import { exited, lines, spawnWorker } from '../helpers/workers.ts';

describeEachStore('a desk that dies mid-load, seen by another (issue 46, point 3)', () => {
  it('within 5 s and without a restart: the screens are told, the load is failed in words, Load is free', async () => {
    const storePath = newStoreLocation();
    (await openStore(storePath)).close();
    const events: { name: EventName; payload: unknown; at: number }[] = [];
    const core = await startCore({
      storePath,
      workerUrl: new URL('../../src/app/runner-thread.ts', import.meta.url),
      serviceWorkerUrl: new URL('../../src/app/service-thread.ts', import.meta.url),
      credentials: { encrypted: false, get: () => null, set: () => {} },
      files: null,
      emit: (name, payload) => events.push({ name, payload, at: Date.now() }),
      log: () => {},
    });
    onTestFinished(() => core.close());
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
    const event = told();
    expect(event, 'the screens were told').toBeDefined();
    expect((event?.at ?? Infinity) - killedAt).toBeLessThan(5_000);
    // Said by who was loading: on a server the desk by its name, never its session's number.
    const after = await status();
    expect(after).toMatchObject({ state: 'failed', alive: false });
    expect(after?.error).toMatch(/^It stopped: .*, which was loading it, is gone .*Load the files again\.$/);
    if (storeKind() === 'postgres') {
      expect(after?.error).toContain(`the desk "${thisComputer()}"`);
      expect(after?.error).not.toMatch(/pid|process \d/);
    }
  });
});
