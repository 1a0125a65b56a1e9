import { expect, it, onTestFinished } from 'vitest';
import type { StoreDb } from '../../src/store/db.ts';
import { openStore } from '../../src/store/open.ts';
import { describeEachStore, newStoreLocation } from '../helpers/stores.ts';

/**
 * `PRAGMA data_version` is how a connection tells that others wrote (an import's plan against its write,
 * the screens' watch): SQLite's moves when another connection commits, never for the connection's own
 * writes. A server store's must mean the same, or an import plans twice and a screen is told of its
 * own writes; and it must not move before the other's writes can be read.
 */
describeEachStore("a store's data version", () => {
  it("moves when another connection commits; not for this connection's own writes, nor for another's uncommitted or rolled back", async () => {
    const location = newStoreLocation();
    const a = await openStore(location);
    onTestFinished(() => a.close());
    const b = await openStore(location);
    onTestFinished(() => b.close());
    const version = (db: StoreDb) => db.pragma('data_version', { simple: true }) as number;
    const write = (db: StoreDb, key: string) => db.prepare("INSERT INTO setting (key, value) VALUES (?, 'x')").run(key);

    const seen = version(a.db);
    write(a.db, 'a lone write');
    a.db
      .transaction(() => {
        write(a.db, 'a first of two');
        write(a.db, 'a second of two');
      })
      .immediate();
    expect(version(a.db), "A's own writes").toBe(seen);

    const seenByB = version(b.db);
    b.db.exec('BEGIN IMMEDIATE');
    write(b.db, 'b rolled back');
    expect(version(a.db), "B's write before its commit").toBe(seen);
    b.db.exec('ROLLBACK');
    expect(version(a.db), "B's write rolled back").toBe(seen);

    b.db.exec('BEGIN IMMEDIATE');
    write(b.db, 'b committed');
    expect(version(a.db), "B's write before its commit").toBe(seen);
    b.db.exec('COMMIT');
    const moved = version(a.db);
    expect(moved, "B's commit").not.toBe(seen);
    expect(a.db.prepare("SELECT value FROM setting WHERE key = 'b committed'").pluck().get()).toBe('x');
    expect(version(b.db), "B's own commit, seen by B").toBe(seenByB);
    expect(version(a.db), 'nothing since').toBe(moved);
  });
});
