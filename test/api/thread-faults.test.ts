import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { describe, expect, it, onTestFinished } from 'vitest';
import { SYSTEM_CLOCK } from '../../src/platform/clock.ts';
import { ServiceThreads } from '../../src/app/service-threads.ts';
import { DamageMark } from '../../src/store/damage.ts';
import { tempDir } from '../helpers/temp.ts';

/**
 * Issue 26, point 1: a service thread that can't open its store, or ends in the middle of a call, never
 * makes a call answer `internal`: the calls it had get why, in its own code, and the next call starts a
 * thread again. (The threads here are test/workers/faulty-service-thread.ts.)
 */
function threads(storeName: string) {
  const storePath = path.join(tempDir(), storeName);
  const db = new Database(':memory:');
  db.exec(
    "CREATE TABLE setting (key TEXT PRIMARY KEY, value TEXT); INSERT INTO setting VALUES ('catalogue.generation', '1')",
  );
  const logs: string[] = [];
  const events: { name: string; payload: unknown }[] = [];
  const t = new ServiceThreads({
    db,
    storePath,
    workerUrl: new URL('../workers/faulty-service-thread.ts', import.meta.url),
    nativeBinding: null,
    clock: SYSTEM_CLOCK,
    credentials: { encrypted: false, get: () => null },
    emit: (name, payload) => events.push({ name, payload }),
    log: (line) => logs.push(line),
    desk: 'test desk',
    runLookup: () => {},
    damage: new DamageMark(),
  });
  onTestFinished(async () => {
    await t.stop();
    db.close();
  });
  const starts = () =>
    fs.existsSync(`${storePath}.starts`) ? fs.readFileSync(`${storePath}.starts`, 'utf8').length : 0;
  return { t, starts, logs, events };
}

const set = { key: 'currency', value: 'EUR' };

describe('a service thread that ends (issue 26, point 1)', () => {
  it("can't open its store: every call it had, and every call after, gets why — and each later call starts it again", async () => {
    const { t, starts } = threads('held-busy');
    const answers = await Promise.all([1, 2, 3].map(() => t.dispatch('settings.set', set)));
    for (const a of answers) expect(a).toMatchObject({ ok: false, error: { code: 'store-busy' } });
    // Between its "failed" and its end, and after it: each call its own thread, the same words.
    for (let i = 0; i < 3; i++) {
      expect(await t.dispatch('settings.set', set)).toMatchObject({ ok: false, error: { code: 'store-busy' } });
      await sleep(i * 200);
    }
    expect(starts()).toBeGreaterThanOrEqual(3);
  });

  it('ends in the middle of a call: the call is interrupted, in words, and the next one starts a new thread', async () => {
    const { t, starts } = threads('crashes');
    await t.whenReady();
    const first = await t.dispatch('settings.set', set);
    expect(first).toMatchObject({ ok: false, error: { code: 'interrupted' } });
    expect(JSON.stringify(first)).toContain('started again');
    expect(await t.dispatch('settings.set', set)).toMatchObject({ ok: false, error: { code: 'interrupted' } });
    expect(starts()).toBe(2);
  });
});

describe('a suggestion index that cannot be built (issue 26, point 4)', () => {
  it('says why, to the screens and to whoever asks, instead of staying "not ready" for good', async () => {
    const { t, events, logs } = threads('index-fails');
    await t.whenReady();
    await expect.poll(() => t.suggestionsProblem).toMatchObject({ code: 'store-damaged' });
    expect(t.suggestionsReady).toBe(false);
    expect(events).toContainEqual({
      name: 'suggestions.status',
      payload: { ready: false, why: { code: 'store-damaged', message: 'The store is damaged.' } },
    });
    expect(logs).toContain('the suggestion index could not be built: The store is damaged.');
  });
});
