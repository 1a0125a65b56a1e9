/**
 * Both stores for one suite (issue 29, SPEC §14): `describeEachStore(title, body)` runs the same tests
 * on a SQLite file and on a PostgreSQL server, the latter started for the file and stopped at its end.
 * Each `stores.location()` is a new, empty store: a file in a fresh folder, or a fresh database.
 * Without PostgreSQL the second half says so and the first runs.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe } from 'vitest';
import { needs } from './needs.ts';
import { hasPostgres, NEEDS_POSTGRES, startPostgres, type PostgresServer } from './postgres.ts';
import { createHash } from 'node:crypto';
import { isServerAddress } from '../../src/vocabulary/store-location.ts';
import { openStore } from '../../src/store/open.ts';
import { dumpRows } from './store-builder.ts';
import { sha256, tempDir } from './temp.ts';

export type StoreKind = 'sqlite' | 'postgres';

export interface Stores {
  readonly kind: StoreKind;
  /** A new empty store's location: `--db` for the CLI, `openStore`'s argument. */
  location(): string;
  /** The server, on PostgreSQL (to cut sessions, stop it, look at rows as its superuser). */
  server(): PostgresServer;
}

let made = 0;

/** The suite's store kind while a `describeEachStore` half runs; null outside them (a SQLite file). */
let current: Stores | null = null;

/**
 * A new empty store for the test that calls it: in a `describeEachStore` half, of that half's kind;
 * elsewhere a SQLite file in a fresh folder. Helpers that make stores (store-builder) call it, so a
 * suite wrapped in `describeEachStore` runs its whole setup on both stores.
 */
export function newStoreLocation(): string {
  if (current !== null) return current.location();
  return path.join(tempDir(), 'brick-work.sqlite');
}

/** The kind of store `newStoreLocation` gives now. */
export function storeKind(): StoreKind {
  return current?.kind ?? 'sqlite';
}

export function describeEachStore(title: string, body: (stores: Stores) => void): void {
  describe(`${title} — on a SQLite file`, () => {
    let dir: string;
    const stores: Stores = {
      kind: 'sqlite',
      location: () => path.join(dir, `store-${++made}`, 'brick-work.sqlite'),
      server: () => {
        throw new Error('a SQLite store has no server');
      },
    };
    beforeAll(() => {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'brick-work-store-'));
      current = stores;
    });
    afterAll(() => {
      current = null;
      fs.rmSync(dir, { recursive: true, force: true });
    });
    body(stores);
  });
  describe.runIf(needs(hasPostgres(), NEEDS_POSTGRES, `${title} on a PostgreSQL server`))(
    `${title} — on a PostgreSQL server`,
    { tags: ['postgres'] },
    () => {
      let server: PostgresServer | undefined;
      const running = () => {
        if (server === undefined) throw new Error('the server has not started');
        return server;
      };
      const stores: Stores = {
        kind: 'postgres',
        location: () => {
          const name = `store_${process.pid}_${++made}`;
          running().createDatabase(name);
          return running().url(name);
        },
        server: running,
      };
      beforeAll(async () => {
        server = await startPostgres();
        current = stores;
      }, 60_000);
      afterAll(() => {
        current = null;
        server?.close();
      });
      body(stores);
    },
  );
}

/**
 * What a store holds, to tell whether anything changed: a SQLite file's bytes, or on a
 * server every row of every table, read through a connection of its own.
 */
export async function storeFingerprint(location: string): Promise<string> {
  if (!isServerAddress(location)) return sha256(location);
  const store = await openStore(location, { readOnly: true });
  try {
    return createHash('sha256')
      .update(JSON.stringify(dumpRows(store.db)))
      .digest('hex');
  } finally {
    store.close();
  }
}
