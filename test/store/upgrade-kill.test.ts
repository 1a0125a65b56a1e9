import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/open.ts';
import { finished, spawnCli } from '../helpers/cli.ts';
import { addUnplacedLines, populate41 } from '../helpers/fixtures.ts';
import { buildStore, dumpRows } from '../helpers/store-builder.ts';
import { tempDir } from '../helpers/temp.ts';

function check(file: string): { version: number; integrity: string; rows: ReturnType<typeof dumpRows> } {
  const db = new Database(file, { readonly: true });
  try {
    return {
      version: db.pragma('user_version', { simple: true }) as number,
      integrity: db.pragma('integrity_check', { simple: true }) as string,
      rows: dumpRows(db),
    };
  } finally {
    db.close();
  }
}

function makeBig41(file: string): ReturnType<typeof dumpRows> {
  const db = buildStore(file, '4.1');
  populate41(db);
  addUnplacedLines(db, 60_000);
  const rows = dumpRows(db);
  db.close();
  return rows;
}

describe('an upgrade killed with SIGKILL', () => {
  it('in the middle of placing lines leaves an intact 4.1 file, which the next read-write open upgrades', async () => {
    const file = path.join(tempDir(), 'brick-work.sqlite');
    const before = makeBig41(file);

    const child = spawnCli(['--db', file, 'store', 'upgrade']);
    const done = finished(child);
    let killedAt = '';
    child.stderr?.on('data', (d: Buffer) => {
      // The first progress report of the placement comes from inside the upgrade's transaction.
      if (!killedAt && /placing lines \d+\/\d+/.test(d.toString())) {
        killedAt = d.toString().trim();
        child.kill('SIGKILL');
      }
    });
    const result = await done;
    expect(result.signal, `the upgrade finished before the kill: ${result.stdout}`).toBe('SIGKILL');
    expect(killedAt).toMatch(/placing lines/);

    const after = check(file);
    expect(after.integrity).toBe('ok');
    expect(after.version).toBe(401);
    expect(after.rows).toEqual(before);

    const store = await openStore(file);
    expect(store.upgrade?.from).toBe('4.1');
    expect(
      store.db
        .prepare('SELECT count(*) FROM order_line WHERE (item_no IS NULL) <> (unplaced_reason IS NOT NULL)')
        .pluck()
        .get(),
    ).toBe(0);
    store.close();
    expect(check(`${file}.4.1.bak`).rows).toEqual(before);
  });

  it('at random moments, again and again, never leaves a torn or half-upgraded file', async () => {
    const file = path.join(tempDir(), 'brick-work.sqlite');
    const before = makeBig41(file);
    let upgraded = false;
    for (let i = 0; i < 6 && !upgraded; i++) {
      const child = spawnCli(['--db', file, 'store', 'upgrade']);
      const done = finished(child);
      const delay = 300 + Math.floor(Math.random() * 500);
      const timer = setTimeout(() => child.kill('SIGKILL'), delay);
      const result = await done;
      clearTimeout(timer);
      const state = check(file);
      expect(state.integrity).toBe('ok');
      if (state.version === 401) {
        expect(result.signal).toBe('SIGKILL');
        expect(state.rows).toEqual(before);
      } else {
        expect(state.version).toBe(402);
        upgraded = true;
      }
    }
    const store = await openStore(file);
    expect(store.db.pragma('user_version', { simple: true })).toBe(402);
    expect(store.db.prepare('SELECT count(*) FROM order_line').pluck().get()).toBe(60_010);
    store.close();
  });
});
