/**
 * Issue 61 §1: the indexes 4.2 gained after stores of it existed (a hand placement's lines by their folded
 * number, a desk's steps by state, …) reach every store: a new one, one an earlier build wrote (at its next
 * read-write open: a file's fix-up, a server's open), and one copied either way. A 4.1 store upgraded gets
 * them from the step (test/store/schema/sqlite-declared.test.ts compares it whole).
 */
import path from 'node:path';
import { expect, it } from 'vitest';
import { copyStore } from '../../src/store/copy/index.ts';
import type { StoreDb } from '../../src/store/db.ts';
import { onServer } from '../../src/store/dialect.ts';
import { openStore } from '../../src/store/open.ts';
import { describeEachStore } from '../helpers/stores.ts';
import { sha256, tempDir } from '../helpers/temp.ts';

const LATE = [
  'document_by_file',
  'order_line_movable_by_number',
  'order_line_movable_by_name',
  'order_line_by_given_colour',
  'order_line_by_colour_name',
  'undo_step_by_state',
  'undo_change_by_row',
  'colour_placement_by_colour',
  // The stock's (issue 65): a document's lines of an item; a category's items.
  'order_line_by_document_item',
  'catalogue_item_by_category',
];

function indexes(db: StoreDb): string[] {
  const sql = onServer(db)
    ? 'SELECT indexname FROM pg_indexes WHERE schemaname = current_schema()'
    : "SELECT name FROM sqlite_master WHERE type = 'index'";
  const all = db.prepare(sql).pluck().all() as string[];
  return LATE.filter((name) => all.includes(name));
}

/** A store as a build before these indexes left it: made now, the indexes dropped. */
async function storeWithout(location: string): Promise<void> {
  const store = await openStore(location);
  expect(indexes(store.db)).toEqual(LATE);
  for (const name of LATE) store.db.exec(`DROP INDEX ${name}`);
  expect(indexes(store.db)).toEqual([]);
  store.close();
}

describeEachStore('the indexes added to 4.2 reach every store (issue 61 §1)', (stores) => {
  it('a store made before them gains them at its next read-write open; a read-only open leaves it as it is', async () => {
    const location = stores.location();
    await storeWithout(location);
    const before = stores.kind === 'sqlite' ? sha256(location) : null;
    const reader = await openStore(location, { readOnly: true });
    expect(indexes(reader.db)).toEqual([]);
    reader.close();
    if (before !== null) expect(sha256(location)).toBe(before);

    const store = await openStore(location);
    expect(indexes(store.db)).toEqual(LATE);
    store.close();
  });

  // A file gains its late tables from ensureLateTables (the schema tests); a server store from its open.
  if (stores.kind === 'postgres')
    it('a server store made before the late tables gains them at its next open, empty', async () => {
      const location = stores.location();
      const tables = ['undo_step_desk', 'job_owner_desk', 'hand_placement_teaching'];
      const present = (db: StoreDb) =>
        db
          .prepare('SELECT tablename FROM pg_tables WHERE schemaname = current_schema() ORDER BY tablename')
          .pluck()
          .all()
          .filter((t) => tables.includes(t as string));
      const made = await openStore(location);
      for (const t of tables) made.db.exec(`DROP TABLE ${t}`);
      expect(present(made.db)).toEqual([]);
      made.close();
      const store = await openStore(location);
      expect(present(store.db)).toEqual([...tables].sort());
      expect(store.db.prepare('SELECT count(*) FROM hand_placement_teaching').pluck().get()).toBe(0);
      store.close();
    });

  // A copy goes between a file and a server: its test is the server half's.
  if (stores.kind === 'postgres')
    it('a copy of a store made before them has them, either way', async () => {
      const file = path.join(tempDir(), 'before.sqlite');
      await storeWithout(file);
      const there = stores.location();
      await copyStore(file, there);
      const server = await openStore(there, { readOnly: true });
      expect(indexes(server.db)).toEqual(LATE);
      server.close();
      const back = path.join(tempDir(), 'back.sqlite');
      await copyStore(there, back);
      const copied = await openStore(back, { readOnly: true });
      expect(indexes(copied.db)).toEqual(LATE);
      copied.close();
    });
});
