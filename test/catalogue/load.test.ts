import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { expect, it, onTestFinished } from 'vitest';
import { SYSTEM_CLOCK } from '../../src/platform/clock.ts';
import { identityOf } from '../../src/identity/owner.ts';
import { catalogueJobRecord, requestCatalogueJobCancel } from '../../src/catalogue/catalogue-job.ts';
import { catalogueLoadSummary, loadCatalogue } from '../../src/catalogue/load.ts';
import { UNPLACED_REASONS } from '../../src/vocabulary/reasons.ts';
import { placeUnplacedLines } from '../../src/placement/place-lines.ts';
import { openStore } from '../../src/store/open.ts';
import { bytes, files } from '../helpers/catalogue-files.ts';
import { cliJson, finished, spawnCli } from '../helpers/cli.ts';
import { insertDocument, insertLine, insertOrder } from '../helpers/store-builder.ts';
import { tempDir } from '../helpers/temp.ts';
import { describeEachStore, newStoreLocation } from '../helpers/stores.ts';
import type { StoreDb } from '../../src/store/db.ts';
import { onServer } from '../../src/store/dialect.ts';

const options = { type: 'P' as const, me: identityOf(), clock: SYSTEM_CLOCK };

const schemaOf = (db: StoreDb) =>
  db
    .prepare(
      onServer(db)
        ? "SELECT indexname, indexdef FROM pg_indexes WHERE tablename LIKE 'catalogue%' ORDER BY indexname"
        : "SELECT type, name, sql FROM sqlite_schema WHERE name LIKE 'catalogue%' ORDER BY name",
    )
    .all();

async function newStore() {
  const file = newStoreLocation();
  const store = await openStore(file);
  onTestFinished(() => store.close());
  return { file, db: store.db };
}

describeEachStore('loading a catalogue (the catalogue job)', () => {
  it('merges by key, keeps each row’s source, never deletes, and places unplaced lines again when it ends', async () => {
    const { file, db } = await newStore();
    const orderId = insertOrder(db, { reference: 'A' });
    const documentId = insertDocument(db, { orderId, key: 'a.csv' });
    insertLine(db, { documentId, position: 1, given: { no: '3001', colourId: 11 } });
    insertLine(db, { documentId, position: 2, given: { name: 'brick  1 x  2' } });
    insertLine(db, { documentId, position: 3, given: { no: '3001', colourId: 999 } });
    insertLine(db, { documentId, position: 4, given: { no: '4444' } });
    db.transaction(() => placeUnplacedLines(db))();

    const first = await loadCatalogue(
      db,
      file,
      [
        {
          name: 'parts.csv',
          content: bytes(
            files.rebrickableParts([
              { no: '3001', name: 'Brick 2 x 4' },
              { no: '3004', name: 'Brick 1 x 2' },
              { no: '9999', name: 'Old Thing' },
            ]),
          ),
        },
        { name: 'colors.xml', content: bytes(files.bricklinkColoursXml([{ id: 11, name: 'Black' }])) },
      ],
      options,
    );
    expect(first).toMatchObject({
      items: 3,
      colours: 1,
      categories: 0,
      placed: 2,
      placedByOrder: [{ orderId, reference: 'A', placed: 2 }],
      cancelled: false,
      warning: null,
    });
    // What the app and the CLI say when it ends: how many lines it placed, in which orders. Line 3 was
    // placed by the parts file and unplaced by the colours file of the same load: unplaced before it and
    // after, it is neither placed nor "placed before" (issue 25).
    expect(catalogueLoadSummary(first)).toBe(
      'Loaded 3 items, 1 colour; 2 unplaced lines are placed now: 2 in order A.',
    );
    expect(first.unplacedByOrder).toEqual([]);
    const reasons = db.prepare('SELECT position, item_no, unplaced_reason FROM order_line ORDER BY position').all();
    expect(reasons).toEqual([
      { position: 1, item_no: '3001', unplaced_reason: null },
      { position: 2, item_no: '3004', unplaced_reason: null },
      { position: 3, item_no: null, unplaced_reason: UNPLACED_REASONS.colourNotInCatalogue },
      { position: 4, item_no: null, unplaced_reason: UNPLACED_REASONS.numberNotInCatalogue },
    ]);

    // A second file renames one item and leaves the others out: they stay.
    await loadCatalogue(
      db,
      file,
      [
        {
          name: 'Parts.xml',
          content: bytes(files.bricklinkItemsXml([{ type: 'P', no: '3001', name: 'Brick 2 x 4 (new name)' }])),
        },
      ],
      options,
    );
    expect(db.prepare('SELECT item_no, name, source FROM catalogue_item ORDER BY item_no').all()).toEqual([
      { item_no: '3001', name: 'Brick 2 x 4 (new name)', source: 'bricklink:Parts.xml' },
      { item_no: '3004', name: 'Brick 1 x 2', source: 'rebrickable:parts.csv' },
      { item_no: '9999', name: 'Old Thing', source: 'rebrickable:parts.csv' },
    ]);
    // Its one row, then the two unplaced lines placed again (they count on the same bar).
    expect(catalogueJobRecord(db, file)).toMatchObject({
      status: 'ok',
      record: { state: 'done', progress: { done: 3, total: 3 } },
    });
  });

  it('says what it did to saved lines both ways: placed, and unplaced by its colours, by reason and order (issue 25, point 2)', async () => {
    const { file, db } = await newStore();
    // Placed before any colours were known: colours unchecked (SPEC §6).
    await loadCatalogue(
      db,
      file,
      [{ name: 'parts.csv', content: bytes(files.rebrickableParts([{ no: '3001', name: 'Brick 2 x 4' }])) }],
      options,
    );
    const a = insertOrder(db, { reference: 'A' });
    const b = insertOrder(db, { reference: 'B' });
    const docA = insertDocument(db, { orderId: a, key: 'a.csv' });
    const docB = insertDocument(db, { orderId: b, key: 'b.csv' });
    insertLine(db, { documentId: docA, position: 1, given: { no: '3001', colourId: 11 } });
    insertLine(db, { documentId: docA, position: 2, given: { no: '3001', colourId: 4 } });
    insertLine(db, { documentId: docA, position: 3, given: { no: '3001', colourId: 4 } });
    insertLine(db, { documentId: docB, position: 1, given: { no: '3001', colourId: 4 } });
    insertLine(db, { documentId: docB, position: 2, given: { no: '7777' } });
    db.transaction(() => placeUnplacedLines(db))();
    expect(db.prepare('SELECT count(*) FROM order_line WHERE item_no IS NOT NULL').pluck().get()).toBe(4);

    const colours = await loadCatalogue(
      db,
      file,
      [{ name: 'colors.xml', content: bytes(files.bricklinkColoursXml([{ id: 11, name: 'Black' }])) }],
      options,
    );
    expect(colours).toMatchObject({
      placed: 0,
      unplacedByOrder: [
        {
          orderId: a,
          reference: 'A',
          unplaced: 2,
          reasons: [{ code: 'colour-not-in-catalogue', text: UNPLACED_REASONS.colourNotInCatalogue, count: 2 }],
        },
        { orderId: b, reference: 'B', unplaced: 1 },
      ],
    });
    expect(catalogueLoadSummary(colours)).toBe(
      'Loaded 1 colour; 3 lines placed before are unplaced now — the colour is not in the catalogue: 2 in order A, 1 in order B.',
    );
    // A load that changes no line says the waiting ones stay; with no lines at all, nothing about lines.
    const again = await loadCatalogue(
      db,
      file,
      [{ name: 'parts.csv', content: bytes(files.rebrickableParts([{ no: '3004', name: 'Brick 1 x 2' }])) }],
      options,
    );
    expect(catalogueLoadSummary(again)).toBe('Loaded 1 item; none of the 4 lines waiting could be placed by it.');
    const empty = await newStore();
    const first = await loadCatalogue(
      empty.db,
      empty.file,
      [{ name: 'parts.csv', content: bytes(files.rebrickableParts([{ no: '3001', name: 'Brick 2 x 4' }])) }],
      options,
    );
    expect(catalogueLoadSummary(first)).toBe('Loaded 1 item.');
  });

  it('refuses a load with a bad file before writing anything, and records the failure', async () => {
    const { file, db } = await newStore();
    await expect(
      loadCatalogue(
        db,
        file,
        [
          { name: 'parts.csv', content: bytes(files.rebrickableParts([{ no: '3001', name: 'Brick 2 x 4' }])) },
          { name: 'colors.csv', content: bytes(files.rebrickableColours()) },
        ],
        options,
      ),
    ).rejects.toMatchObject({ code: 'parse-error' });
    expect(db.prepare('SELECT count(*) FROM catalogue_item').pluck().get()).toBe(0);
    expect(catalogueJobRecord(db, file)).toMatchObject({
      record: { state: 'failed', error: expect.stringContaining('colors.csv') },
    });
  });

  // A PostgreSQL text can't hold NUL: on a server such a name ended in `internal`. A catalogue file is
  // text, so a NUL says the file is damaged, on either store, with where it is.
  it('refuses a file holding a NUL byte in words, with its line, and loads nothing of it', async () => {
    const { file, db } = await newStore();
    const parts = files.rebrickableParts([
      { no: '3001', name: 'Brick 2 x 4' },
      { no: '3004', name: 'Brick\u0000 1 x 2' },
    ]);
    for (const name of ['parts.csv', 'parts.csv.gz']) {
      const content = name.endsWith('.gz') ? zlib.gzipSync(bytes(parts)) : bytes(parts);
      await expect(loadCatalogue(db, file, [{ name, content }], options)).rejects.toMatchObject({
        code: 'parse-error',
        message: `${name}, line 3, column 11: a NUL byte is in the text, which a catalogue file never holds (is the file damaged?)`,
      });
      expect(db.prepare('SELECT count(*) FROM catalogue_item').pluck().get()).toBe(0);
    }
  });

  it('stops when staff cancel, rolling back the file it was merging', async () => {
    const { file, db } = await newStore();
    const many = files.rebrickableParts(Array.from({ length: 500 }, (_, i) => ({ no: `p${i}`, name: `Part ${i}` })));
    const result = await loadCatalogue(db, file, [{ name: 'parts.csv', content: bytes(many) }], {
      ...options,
      progressEvery: 100,
      onProgress: ({ done }) => {
        if (done === 200) requestCatalogueJobCancel(db, file, SYSTEM_CLOCK);
      },
    });
    expect(result).toMatchObject({ cancelled: true, items: 0 });
    expect(db.prepare('SELECT count(*) FROM catalogue_item').pluck().get()).toBe(0);
    expect(catalogueJobRecord(db, file)).toMatchObject({ record: { state: 'cancelled' } });
    // A first load builds the name index at its end: cut short, the index is back as it was.
    expect(schemaOf(db)).toEqual(schemaOf((await newStore()).db));
  });

  it('a first load (index built at its end) and a later merge leave the schema as a new store has it, and names found by the index', async () => {
    const { file, db } = await newStore();
    const fresh = schemaOf((await newStore()).db);
    // Out of key order, with a number given twice (the second wins, as a merge does) and mixed case.
    const parts = [
      { no: 'b2', name: 'Brick  Two' },
      { no: '3001', name: 'Brick 2 x 4' },
      { no: 'A1', name: 'Arch' },
      { no: '3001', name: 'Brick 2 x 4 (new name)' },
      ...Array.from({ length: 450 }, (_, i) => ({ no: `x${999 - i}`, name: `Part ${i}` })),
    ];
    await loadCatalogue(db, file, [{ name: 'parts.csv', content: bytes(files.rebrickableParts(parts)) }], options);
    expect(schemaOf(db)).toEqual(fresh);
    if (!onServer(db)) {
      // SQLite's plan (a server's planner may rightly scan a table this small).
      const plan = db.prepare('EXPLAIN QUERY PLAN SELECT item_no FROM catalogue_item WHERE name_key = ?').all('arch');
      expect(JSON.stringify(plan)).toContain('catalogue_item_by_name_key');
    }
    const names = (keys: string[]) =>
      keys.map((k) => db.prepare('SELECT item_no, name FROM catalogue_item WHERE name_key = ?').all(k));
    expect(names(['brick two', 'arch', 'brick 2 x 4 (new name)'])).toEqual([
      [{ item_no: 'b2', name: 'Brick  Two' }],
      [{ item_no: 'A1', name: 'Arch' }],
      [{ item_no: '3001', name: 'Brick 2 x 4 (new name)' }],
    ]);
    expect(db.prepare('SELECT count(*) FROM catalogue_item').pluck().get()).toBe(453);
    // A second load merges into the indexed catalogue.
    await loadCatalogue(
      db,
      file,
      [{ name: 'parts.csv', content: bytes(files.rebrickableParts([{ no: 'a1', name: 'Arch 1 x 4' }])) }],
      options,
    );
    expect(names(['arch 1 x 4'])).toEqual([[{ item_no: 'A1', name: 'Arch 1 x 4' }]]);
    expect(schemaOf(db)).toEqual(fresh);
  });

  it('catalogue import --json reports items, colours and categories', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'brick-work.sqlite');
    fs.writeFileSync(path.join(dir, 'Sets.txt'), files.bricklinkItemsTab([{ no: '10190-1', name: 'Market Street' }]));
    fs.writeFileSync(
      path.join(dir, 'colors.txt'),
      files.bricklinkColoursTab([
        { id: 1, name: 'White' },
        { id: 11, name: 'Black' },
      ]),
    );
    fs.writeFileSync(
      path.join(dir, 'categories.txt'),
      files.bricklinkCategoriesTab([{ id: 66, name: 'Modular Buildings' }]),
    );
    const r = await cliJson([
      '--db',
      file,
      'catalogue',
      'import',
      path.join(dir, 'Sets.txt'),
      path.join(dir, 'colors.txt'),
      path.join(dir, 'categories.txt'),
      '--type',
      'S',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json).toMatchObject({ items: 1, colours: 2, categories: 1 });
    const info = await cliJson(['--db', file, 'store', 'info']);
    expect(info.json.counts).toMatchObject({ items: 1, colours: 2, categories: 1 });
    expect((await cliJson(['--db', file, 'catalogue', 'import', path.join(dir, 'nope.csv')])).json.error.code).toBe(
      'not-found',
    );
    expect((await cliJson(['--db', file, 'catalogue', 'import', path.join(dir, 'Sets.txt'), '--type', 'Q'])).code).toBe(
      2,
    );
  });

  it('gives Busy to a second process while one loads, and lets it start once the first is killed', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'brick-work.sqlite');
    const big = path.join(dir, 'parts.csv');
    const rows = Array.from(
      { length: 1_000_000 },
      (_, i) => `x${i},Generated Part Number ${i} with a longer name,11,Plastic`,
    );
    fs.writeFileSync(big, `part_num,name,part_cat_id,part_material\n${rows.join('\n')}\n`);
    const small = path.join(dir, 'more.csv');
    fs.writeFileSync(small, files.rebrickableParts([{ no: '3001', name: 'Brick 2 x 4' }]));

    const first = spawnCli(['--db', file, 'catalogue', 'import', big]);
    const firstDone = finished(first);
    // Wait until the first one is merging (its progress is in catalogue-job.json).
    const watcher = await openStore(file, { readOnly: true });
    onTestFinished(() => watcher.close());
    for (let i = 0; i < 600; i++) {
      const job = catalogueJobRecord(watcher.db, file);
      if (job.status === 'ok' && job.record.state === 'running' && job.record.progress.done > 0) break;
      await new Promise((r) => setTimeout(r, 25));
    }
    const second = await cliJson(['--db', file, 'catalogue', 'import', small]);
    expect(second.code).toBe(1);
    expect(second.json.error.code).toBe('busy');
    expect(second.json.error.message).toContain(`pid ${first.pid}`);

    first.kill('SIGKILL');
    expect((await firstDone).signal).toBe('SIGKILL');
    const third = await cliJson(['--db', file, 'catalogue', 'import', small]);
    expect(third.code, third.stderr).toBe(0);
    expect(third.json).toMatchObject({ items: 1 });
  });
});
