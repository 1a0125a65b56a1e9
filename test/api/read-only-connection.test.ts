/**
 * Read-only for real (issue 66 §2): a call that only reads is given a connection the engine keeps from
 * writing — SQLite's `query_only`, a server session with `default_transaction_read_only` — and deps
 * without the writer's session, the jobs or the threads. `read-handles.test.ts` holds the types; this
 * tries each kind of write at run time, past the types, and sees the engine refuse it.
 */
import { expect, it, onTestFinished } from 'vitest';
import { handlerDeps } from '../../src/api/service.ts';
import type { ReadableDb, StoreDb, StoreStatement } from '../../src/store/db.ts';
import { openStore } from '../../src/store/open.ts';
import { getSetting, setSetting } from '../../src/store/settings.ts';
import { serviceFor } from '../helpers/service.ts';
import { describeEachStore, newStoreLocation, storeKind } from '../helpers/stores.ts';

async function opened() {
  const storePath = newStoreLocation();
  const store = await openStore(storePath);
  onTestFinished(() => store.close());
  const service = serviceFor(store.db, storePath);
  // The parts a service makes its handlers from, over the same store.
  return { store, service, deps: handlerDeps(contextOf(store.db, storePath)) };
}

function contextOf(db: StoreDb, storePath: string) {
  return {
    db,
    storePath,
    schema: '4.2',
    clock: { now: () => new Date() },
    upgrade: null,
    recovered: [],
    jobs: { startCatalogueLoad: () => {}, startLookup: () => 0 },
    credentials: { encrypted: false, get: () => null, set: () => {} },
    files: null,
    threads: null,
    emit: () => {},
  };
}

/** A statement prepared by a reader, run as a write (what its type does not offer). */
const run = (db: ReadableDb, sql: string) => (db.prepare(sql) as unknown as StoreStatement).run();

/** The engine's refusal of a write on a connection that can't write. */
function refusal(write: () => unknown): string {
  try {
    write();
  } catch (e) {
    const { code, message } = e as { code?: unknown; message?: unknown };
    return `${String(code)} ${String(message)}`;
  }
  return 'written';
}

const REFUSED = () => (storeKind() === 'sqlite' ? /SQLITE_READONLY/ : /read-only transaction/);

describeEachStore('a read call reads through a connection that cannot write', () => {
  it('each kind of write through the reader is refused by the engine, and nothing is written', async () => {
    const { store, deps } = await opened();
    const reader = deps.reader.db;
    setSetting(store.db, 'currency', 'EUR');
    const writes: Record<string, () => unknown> = {
      insert: () => run(reader, "INSERT INTO setting (key, value) VALUES ('x-reader', '1')"),
      update: () => run(reader, "UPDATE setting SET value = 'USD' WHERE key = 'currency'"),
      delete: () => run(reader, 'DELETE FROM setting'),
      // `.all()` is a reader's to call: on an INSERT … RETURNING it would write, so the engine refuses it.
      returning: () =>
        reader.prepare("INSERT INTO setting (key, value) VALUES ('x-returning', '1') RETURNING key").all(),
      pragma: () => (reader as unknown as StoreDb).pragma('user_version = 99'),
      ddl: () => run(reader, 'CREATE TABLE reader_made (id INTEGER)'),
    };
    for (const [kind, write] of Object.entries(writes)) expect(refusal(write), kind).toMatch(REFUSED());

    expect(getSetting(store.db, 'currency')).toBe('EUR');
    expect(store.db.prepare("SELECT count(*) AS n FROM setting WHERE key LIKE 'x-%'").pluck().get()).toBe(0);
    const tables = store.db
      .prepare(
        storeKind() === 'sqlite'
          ? "SELECT count(*) FROM sqlite_master WHERE name = 'reader_made'"
          : "SELECT count(*) FROM information_schema.tables WHERE table_name = 'reader_made'",
      )
      .pluck()
      .get();
    expect(Number(tables)).toBe(0);
  });

  it("the reader sees the writer's latest commit, and holds up no write", async () => {
    const { store, deps, service } = await opened();
    const reader = deps.reader.db;
    expect(getSetting(reader, 'currency')).not.toBe('DKK');
    setSetting(store.db, 'currency', 'DKK');
    expect(getSetting(reader, 'currency')).toBe('DKK');
    // A read call through the service, then a write call: the write goes through at once.
    expect(await service.call('settings.get', {})).toMatchObject({ ok: true, value: { currency: 'DKK' } });
    expect(await service.call('settings.set', { key: 'currency', value: 'SEK' })).toMatchObject({ ok: true });
    expect(await service.call('settings.get', {})).toMatchObject({ ok: true, value: { currency: 'SEK' } });
  });

  it("a read call's deps hold no writer's session, jobs or threads; a write call's do", async () => {
    const { deps } = await opened();
    expect(Object.keys(deps.reader)).not.toContain('session');
    for (const member of ['db', 'jobs', 'threads']) expect(member in deps.reader.ctx, member).toBe(false);
    expect('session' in deps.reader).toBe(false);
    expect(deps.reader.db).not.toBe(deps.writer.db);
    // The writer's parts have them.
    expect(deps.writer.session.db).toBe(deps.writer.db);
    for (const member of ['db', 'jobs', 'threads']) expect(member in deps.writer.ctx, member).toBe(true);
  });

  it('a store opened read-only is its own reader: no second connection', async () => {
    const storePath = newStoreLocation();
    (await openStore(storePath)).close();
    const store = await openStore(storePath, { readOnly: true });
    onTestFinished(() => store.close());
    const { reader } = handlerDeps(contextOf(store.db, storePath));
    expect(reader.db).toBe(store.db);
    expect(refusal(() => run(reader.db, "INSERT INTO setting (key, value) VALUES ('x', '1')"))).toMatch(REFUSED());
  });
});
