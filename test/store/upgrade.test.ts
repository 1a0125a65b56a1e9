import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/open.ts';
import { cliJson } from '../helpers/cli.ts';
import { addUnplacedLines, populate41 } from '../helpers/fixtures.ts';
import { buildStore, dumpRows, normalisedSchema } from '../helpers/store-builder.ts';
import { tempDir } from '../helpers/temp.ts';

describe('schema 4.1 → 4.2', () => {
  it('makes a new store and an upgraded 4.1 store with identical schemas', async () => {
    const dir = tempDir();
    const fresh = await openStore(path.join(dir, 'new.sqlite'));
    const old = path.join(dir, 'old.sqlite');
    const db41 = buildStore(old, '4.1');
    populate41(db41);
    db41.close();
    const upgraded = await openStore(old);
    expect(upgraded.upgrade?.from).toBe('4.1');

    expect(normalisedSchema(upgraded.db)).toEqual(normalisedSchema(fresh.db));
    expect(upgraded.db.pragma('user_version', { simple: true })).toBe(402);
    expect(fresh.db.pragma('user_version', { simple: true })).toBe(402);
    expect(fresh.db.pragma('application_id', { simple: true })).toBe(0x42524b57);
    fresh.close();
    upgraded.close();
  });

  it('keeps every row of a populated 4.1 file, fills the reasons, and leaves a 4.1 backup with the same rows', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'brick-work.sqlite');
    const db41 = buildStore(file, '4.1');
    const { expected } = populate41(db41);
    const before = dumpRows(db41);
    db41.close();

    const store = await openStore(file);
    expect(store.upgrade).toEqual({ from: '4.1', to: '4.2', backup: `${file}.4.1.bak` });

    // Every 4.1 row is still there: same values in every 4.1 column.
    const after = dumpRows(store.db);
    for (const [table, rows] of Object.entries(before)) {
      const columns = Object.keys((rows[0] ?? {}) as object);
      const kept = (after[table] ?? []).map((r) => pick(r as Record<string, unknown>, columns));
      if (table === 'order_line') {
        expect(kept.map((r) => r['id'])).toEqual(rows.map((r) => (r as Record<string, unknown>)['id']));
        continue; // placement columns may change, checked below
      }
      expect(kept, table).toEqual(rows);
    }

    // Unplaced lines were placed where they now can be, the others got their reason.
    const lines = store.db
      .prepare(
        'SELECT id, item_type, item_no, unplaced_reason, quantity, unit_price_e4, given_no, given_name FROM order_line',
      )
      .all() as { id: number; item_type: string | null; item_no: string | null; unplaced_reason: string | null }[];
    expect(lines).toHaveLength(expected.size);
    for (const line of lines) {
      const want = expected.get(line.id);
      expect(
        { placed: line.item_no ? `${line.item_type} ${line.item_no}` : null, reason: line.unplaced_reason },
        `line ${line.id}`,
      ).toEqual(want);
    }
    for (const line of lines) expect(line.unplaced_reason === null).toBe(line.item_no !== null);
    // The given values never change.
    const given41 = (before['order_line'] ?? []).map((r) =>
      pick(r as Record<string, unknown>, ['id', 'quantity', 'unit_price_e4', 'given_no', 'given_name']),
    );
    expect(lines.map((r) => pick(r, ['id', 'quantity', 'unit_price_e4', 'given_no', 'given_name']))).toEqual(given41);
    store.close();

    // The backup opens as 4.1, with the same rows as before.
    const backup = new Database(`${file}.4.1.bak`, { readonly: true });
    expect(backup.pragma('user_version', { simple: true })).toBe(401);
    expect(backup.pragma('application_id', { simple: true })).toBe(0x42524b57);
    expect(dumpRows(backup)).toEqual(before);
    backup.close();
    expect(fs.existsSync(`${file}.4.1.bak.partial`)).toBe(false);
  });

  it('upgrades once: a second read-write open finds it current and leaves the backup alone', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'brick-work.sqlite');
    buildStore(file, '4.1').close();
    (await openStore(file)).close();
    const backupTime = fs.statSync(`${file}.4.1.bak`).mtimeMs;
    const again = await openStore(file);
    expect(again.upgrade).toBeNull();
    expect(again.created).toBe(false);
    again.close();
    expect(fs.statSync(`${file}.4.1.bak`).mtimeMs).toBe(backupTime);
  });

  it('upgrades once when two processes open the same 4.1 file at the same moment', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'brick-work.sqlite');
    const db = buildStore(file, '4.1');
    populate41(db);
    addUnplacedLines(db, 20_000);
    db.close();
    const results = await Promise.all([1, 2, 3].map(() => cliJson(['--db', file, 'store', 'upgrade'])));
    for (const r of results) expect(r.code, r.stderr).toBe(0);
    expect(results.filter((r) => r.json.upgradedFrom === '4.1')).toHaveLength(1);
    const backup = new Database(`${file}.4.1.bak`, { readonly: true });
    expect(backup.pragma('user_version', { simple: true })).toBe(401);
    backup.close();
  });

  it('writes with WAL, foreign keys on, synchronous FULL and a busy timeout', async () => {
    const store = await openStore(path.join(tempDir(), 's.sqlite'));
    expect(store.db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(store.db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(store.db.pragma('synchronous', { simple: true })).toBe(2);
    expect(store.db.pragma('busy_timeout', { simple: true })).toBeGreaterThan(0);
    store.close();
  });

  it('makes a new store of an empty file and of a missing file in a missing folder', async () => {
    const dir = tempDir();
    const empty = path.join(dir, 'empty.sqlite');
    fs.writeFileSync(empty, '');
    const a = await openStore(empty);
    expect(a.created).toBe(true);
    a.close();
    const nested = path.join(dir, 'a', 'b', 'brick-work.sqlite');
    const b = await openStore(nested);
    expect(b.created).toBe(true);
    expect(b.db.pragma('user_version', { simple: true })).toBe(402);
    b.close();
  });
});

function pick(row: Record<string, unknown>, columns: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(columns.map((c) => [c, row[c]]));
}
