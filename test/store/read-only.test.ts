import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BrickWorkError } from '../../src/vocabulary/errors.ts';
import { inspectStore } from '../../src/store/info.ts';
import { openStore } from '../../src/store/open.ts';
import { cliJson } from '../helpers/cli.ts';
import { populate41 } from '../helpers/fixtures.ts';
import { buildStore } from '../helpers/store-builder.ts';
import { sha256, tempDir } from '../helpers/temp.ts';

describe('read-only opens', () => {
  it('answer store info on a 4.1 file, refuse everything else with needs-upgrade, and never change it', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'brick-work.sqlite');
    const db = buildStore(file, '4.1');
    populate41(db);
    db.pragma('wal_checkpoint(TRUNCATE)');
    db.close();
    const hash = sha256(file);

    const info = inspectStore(file);
    expect(info).toMatchObject({ schema: '4.1', status: 'needs-upgrade', applicationId: 0x42524b57 });
    expect(info.counts).toMatchObject({ items: 6, orders: 1, lines: 10, jobs: 3, unplacedLines: 9 });

    const cli = await cliJson(['--db', file, 'store', 'info']);
    expect(cli.code).toBe(0);
    expect(cli.json).toMatchObject({ schema: '4.1', applicationId: 0x42524b57, path: file, counts: { lines: 10 } });

    const refused = await openStore(file, { readOnly: true }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(refused).toBeInstanceOf(BrickWorkError);
    expect((refused as BrickWorkError).code).toBe('needs-upgrade');
    expect((refused as BrickWorkError).message).toBe(
      'this store is schema 4.1; open it read-write once to upgrade it to 4.2',
    );

    expect(sha256(file)).toBe(hash);
    expect(fs.existsSync(`${file}.4.1.bak`)).toBe(false);
  });

  it('open a current store without writing to it', async () => {
    const file = path.join(tempDir(), 'brick-work.sqlite');
    (await openStore(file)).close();
    const hash = sha256(file);
    const store = await openStore(file, { readOnly: true });
    expect(store.readOnly).toBe(true);
    expect(() => store.db.exec("INSERT INTO setting VALUES ('k', 'v')")).toThrow(/readonly/);
    store.close();
    expect(sha256(file)).toBe(hash);
  });

  it('of a missing file give an empty store and create nothing', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'nothing-here.sqlite');
    const store = await openStore(file, { readOnly: true });
    expect(store.path).toBeNull();
    expect(store.db.prepare('SELECT count(*) FROM shop_order').pluck().get()).toBe(0);
    store.close();
    expect(fs.readdirSync(dir)).toEqual([]);
    const r = await cliJson(['--db', file, 'store', 'info']);
    expect(r.json).toMatchObject({ exists: false, schema: null, path: file });
    expect(fs.readdirSync(dir)).toEqual([]);
  });
});
