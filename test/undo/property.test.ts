import fs from 'node:fs';
import { thisComputer } from '../../src/identity/desk.ts';
import { writeSession } from '../../src/store/session.ts';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { SYSTEM_CLOCK } from '../../src/platform/clock.ts';
import { BrickWorkError } from '../../src/vocabulary/errors.ts';
import { confirmImport } from '../../src/documents/import.ts';
import { bricklinkXml } from '../../src/exports/bricklink-xml.ts';
import { summaryCsv } from '../../src/exports/summary.ts';
import { forgetMemory, placeByHand } from '../../src/hand/placement.ts';
import { colourMemories, itemMemories } from '../../src/store/memories.ts';
import { orderLines } from '../../src/store/lines.ts';
import { listOrders } from '../../src/store/orders.ts';
import { openStore, type Store } from '../../src/store/open.ts';
import { nextRedo, nextUndo } from '../../src/undo/history.ts';
import { redoNext, undoNewest } from '../helpers/history.ts';
import { cli } from '../helpers/cli.ts';
import { bsx, csv, file, orderXml } from '../helpers/documents.ts';
import {
  dumpRows,
  insertColour,
  insertDocument,
  insertItem,
  insertLine,
  insertOrder,
  type Db,
} from '../helpers/store-builder.ts';
import { tallyMismatches } from '../helpers/tally.ts';
import { describeEachStore } from '../helpers/stores.ts';

const clock = SYSTEM_CLOCK;
// Bookkeeping, not staff's data: the history itself, settings, and each document's tally (derived from its
// lines and checked against them in checkInvariants; an undone document keeps its lines, so its tally too).
const NOT_DOMAIN = ['undo_step', 'undo_change', 'undo_step_catalogue', 'undo_step_desk', 'setting', 'document_tally'];
const ITEMS = [
  ['3001', 'Brick 2 x 4'],
  ['3003', 'Brick 2 x 2'],
  ['3020', 'Plate 2 x 4'],
  ['3023', 'Plate 1 x 2'],
] as const;

/** The documents staff import over and over: versions of one key that pair, one that does not, and others. */
const DOCUMENTS = [
  file(
    'Falcon.bsx',
    bsx([
      { no: '3001', name: 'Brick 2 x 4', qty: 2 },
      { no: '9001', name: 'Odd Brick' },
      { name: 'Brick 2 x 2', qty: 3 },
    ]),
  ),
  file(
    'Falcon.bsx',
    bsx([
      { no: '3001', name: 'Brick 2 x 4', qty: 5 },
      { no: '9001', name: 'Odd Brick', colour: 5 },
      { no: '3023', name: 'Brick 2 x 2' },
    ]),
  ),
  // 9002 gives colour 77, which the catalogue does not know: placing it by hand needs a colour, which is remembered.
  file('Falcon.bsx', bsx([{ no: '3001' }, { no: '9001' }, { no: '9002', colour: 77 }, { no: '9003', colour: 77 }])),
  file(
    'order.xml',
    orderXml([
      {
        id: '50',
        seller: 'ann',
        currency: 'EUR',
        lines: [
          { no: '3020', qty: 4, price: '0.3' },
          { no: '7777', colour: 5 },
        ],
      },
    ]),
  ),
  file(
    'list.csv',
    csv(
      ['name', 'quantity', 'price'],
      [
        ['Plate 1 x 2', 2, '0.05'],
        ['Mystery piece', 1, '1'],
      ],
    ),
  ),
];

type Action =
  | { kind: 'import'; doc: number; asNew: boolean }
  | { kind: 'undo-then-import'; doc: number }
  | { kind: 'place'; line: number; item: number; colour: boolean }
  | { kind: 'forget'; which: number }
  | { kind: 'undo' }
  | { kind: 'redo' }
  | { kind: 'restart' }
  | { kind: 'catalogue-grows'; item: number }
  | { kind: 'cli-undo' };

const action: fc.Arbitrary<Action> = fc.oneof(
  {
    arbitrary: fc.record({
      kind: fc.constant('import' as const),
      doc: fc.nat(DOCUMENTS.length - 1),
      asNew: fc.boolean(),
    }),
    weight: 4,
  },
  // Staff undo an import and import the file again, changed or not: a revival, or lines that don't pair.
  {
    arbitrary: fc.record({ kind: fc.constant('undo-then-import' as const), doc: fc.nat(DOCUMENTS.length - 1) }),
    weight: 3,
  },
  {
    arbitrary: fc.record({
      kind: fc.constant('place' as const),
      line: fc.nat(20),
      item: fc.nat(ITEMS.length - 1),
      colour: fc.boolean(),
    }),
    weight: 3,
  },
  { arbitrary: fc.record({ kind: fc.constant('forget' as const), which: fc.nat(5) }), weight: 1 },
  { arbitrary: fc.constant({ kind: 'undo' as const }), weight: 3 },
  { arbitrary: fc.constant({ kind: 'redo' as const }), weight: 2 },
  { arbitrary: fc.constant({ kind: 'restart' as const }), weight: 1 },
  // The catalogue changes outside the history (a load, a look-up): later undos and redos re-place.
  { arbitrary: fc.record({ kind: fc.constant('catalogue-grows' as const), item: fc.nat(2) }), weight: 1 },
  { arbitrary: fc.constant({ kind: 'cli-undo' as const }), weight: 1 },
);

/** What staff can see and export: orders with saved lines, their lines and placements, the exports, remembered placements. */
function savedData(db: Db) {
  const orders = listOrders(db, { savedOnly: true });
  return {
    orders,
    lines: orders.map((o) => orderLines(db, o.id)),
    summary: summaryCsv(db),
    bricklink: orders.map((o) => bricklinkXml(db, o.id).content),
    remembered: itemMemories(db),
    colours: colourMemories(db),
  };
}

function checkInvariants(db: Db): void {
  const mismatched = db
    .prepare('SELECT count(*) FROM order_line WHERE (item_no IS NULL) <> (unplaced_reason IS NOT NULL)')
    .pluck()
    .get();
  expect(mismatched, 'unplaced ⇔ a reason').toBe(0);
  expect(tallyMismatches(db), "each document's tally counts its lines").toEqual([]);
  for (const order of listOrders(db)) {
    for (const line of orderLines(db, order.id)) {
      const state = db.prepare('SELECT state FROM document WHERE id = ?').pluck().get(line.documentId);
      expect(state, 'saved lines are lines of imported documents').toBe('imported');
    }
  }
  const undoneLines = db
    .prepare("SELECT count(*) FROM order_line l JOIN document d ON d.id = l.document_id WHERE d.state = 'undone'")
    .pluck()
    .get() as number;
  const allLines = db.prepare('SELECT count(*) FROM order_line').pluck().get() as number;
  expect(listOrders(db).reduce((n, o) => n + o.lines, 0)).toBe(allLines - undoneLines);
}

/** Rows that were there before must be back exactly; new rows may only be those of a now-undone document. */
function expectRestored(db: Db, before: Record<string, unknown[]>): void {
  const after = dumpRows(db, NOT_DOMAIN);
  for (const [table, rows] of Object.entries(before)) {
    const keep = new Set(rows.map((r) => (r as { id?: number; item_type?: string }).id ?? JSON.stringify(r)));
    const now = (after[table] ?? []).filter((r) => keep.has((r as { id?: number }).id ?? JSON.stringify(r)));
    expect(now, `${table} rows are back as they were`).toEqual(rows);
    const extra = (after[table] ?? []).filter(
      (r) => !keep.has((r as { id?: number }).id ?? JSON.stringify(r)),
    ) as Record<string, unknown>[];
    for (const row of extra) {
      if (table === 'document') expect(row['state']).toBe('undone');
      else if (table === 'order_line')
        expect(db.prepare('SELECT state FROM document WHERE id = ?').pluck().get(row['document_id'])).toBe('undone');
      else if (table === 'shop_order')
        expect(listOrders(db, { savedOnly: true }).some((o) => o.id === row['id'])).toBe(false);
      else expect.fail(`undo left a new row in ${table}`);
    }
  }
}

/** Runs one writing action; null when it was refused (and then the store must be unchanged). */
function write(db: Db, a: Action, stats: { revivals: number }): 'wrote' | 'refused' {
  try {
    if (a.kind === 'import' || a.kind === 'undo-then-import') {
      const results = confirmImport(
        writeSession(db),
        { file: DOCUMENTS[a.doc] ?? DOCUMENTS[0] ?? file('x', ''), asNew: a.kind === 'import' && a.asNew },
        clock,
      );
      stats.revivals += results.filter((r) => r.revived).length;
    } else if (a.kind === 'place') {
      const lines = db.prepare('SELECT id FROM order_line ORDER BY id').pluck().all() as number[];
      if (lines.length === 0) return 'refused';
      const item = ITEMS[a.item] ?? ITEMS[0];
      placeByHand(
        writeSession(db),
        lines[a.line % lines.length] ?? 0,
        { type: 'P', no: item[0], colourId: a.colour ? 5 : null },
        clock,
        // Confirmed, as staff would after reading what it does: the moves are what this test is about.
        ['moves-lines', 'other-type'],
      );
    } else if (a.kind === 'forget') {
      const all = [
        ...itemMemories(db).map((m) => ['item', m.id] as const),
        ...colourMemories(db).map((m) => ['colour', m.id] as const),
      ];
      if (all.length === 0) return 'refused';
      const [kind, id] = all[a.which % all.length] ?? ['item', 0];
      forgetMemory(writeSession(db), kind, id, clock);
    }
    return 'wrote';
  } catch (e) {
    if (e instanceof BrickWorkError) return 'refused';
    throw e;
  }
}

describeEachStore('undo and redo, as a property (fast-check)', (stores) => {
  it('hold the invariants over random sequences of imports, hand placements, forgetting, undo, redo, revivals and restarts', async () => {
    let cliRuns = 0;
    const stats = { revivals: 0 };
    await fc.assert(
      fc.asyncProperty(fc.array(action, { minLength: 1, maxLength: 14 }), async (actions) => {
        const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'brick-work-prop-'));
        const dbPath = stores.kind === 'sqlite' ? path.join(dir, 'brick-work.sqlite') : stores.location();
        let store: Store = await openStore(dbPath);
        try {
          const seed = store.db;
          seed.transaction(() => {
            for (const [no, name] of ITEMS) insertItem(seed, { no, name });
            insertColour(seed, { id: 5, name: 'Red' });
            // Saved data that is not in the history: undoing everything must leave it as it is.
            const orderId = insertOrder(seed, { reference: 'before', counterparty: 'zed', currency: 'USD' });
            const documentId = insertDocument(seed, { orderId, key: 'before.csv' });
            insertLine(seed, {
              documentId,
              position: 1,
              given: { no: '3001' },
              quantity: 3,
              priceE4: 1500,
              placed: { type: 'P', no: '3001', by: 'number' },
            });
          })();
          seed.prepare('UPDATE order_line SET unplaced_reason = NULL').run();
          const start = savedData(store.db);

          for (const a of actions) {
            const db = store.db;
            if (a.kind === 'catalogue-grows') {
              const grown: [string, string][] = [
                ['9001', 'Odd Brick'],
                ['7777', 'Lucky Seven'],
                ['9002', 'Mystery piece'],
              ];
              const [no, name] = grown[a.item] ?? ['9001', 'Odd Brick'];
              if (db.prepare('SELECT 1 FROM catalogue_item WHERE item_no = ?').get(no) === undefined)
                insertItem(db, { no, name });
              continue;
            }
            if (a.kind === 'restart') {
              store.close();
              store = await openStore(dbPath);
              continue;
            }
            if (a.kind === 'undo' || a.kind === 'redo' || a.kind === 'cli-undo') {
              const canMove =
                a.kind === 'redo' ? nextRedo(db, thisComputer()) !== null : nextUndo(db, thisComputer()) !== null;
              const before = dumpRows(db, NOT_DOMAIN);
              if (a.kind === 'cli-undo') {
                if (cliRuns >= 12) continue; // real processes are slow: a dozen per run of the property is plenty
                cliRuns += 1;
                const r = await cli(['--db', dbPath, 'undo']);
                expect(r.code, r.stderr).toBe(canMove ? 0 : 1);
              } else {
                // The refusal is caught alone: an assertion never runs inside the try that would swallow it.
                let refused: unknown = null;
                try {
                  if (a.kind === 'undo') undoNewest(db, clock);
                  else redoNext(db, clock);
                } catch (e) {
                  refused = e;
                }
                expect(refused === null, `${a.kind}: ${String(refused)}`).toBe(canMove);
                if (refused !== null)
                  expect((refused as BrickWorkError).code).toBe(
                    a.kind === 'undo' ? 'nothing-to-undo' : 'nothing-to-redo',
                  );
              }
              if (!canMove) expect(dumpRows(db, NOT_DOMAIN)).toEqual(before);
              checkInvariants(db);
              continue;
            }
            if (a.kind === 'undo-then-import') {
              if (nextUndo(db, thisComputer()) === null) continue;
              undoNewest(db, clock);
              checkInvariants(db);
            }
            const before = dumpRows(db, NOT_DOMAIN);
            const outcome = write(db, a, stats);
            if (outcome === 'refused') {
              expect(dumpRows(db, NOT_DOMAIN), 'a refusal leaves the store as it was').toEqual(before);
              continue;
            }
            checkInvariants(db);
            // An undo right after the step gives back every row; a redo puts the step back exactly.
            const after = dumpRows(db, NOT_DOMAIN);
            undoNewest(db, clock);
            checkInvariants(db);
            expectRestored(db, before);
            redoNext(db, clock);
            expect(dumpRows(db, NOT_DOMAIN)).toEqual(after);
          }

          // Undoing everything gives back the saved data of the start.
          while (nextUndo(store.db, thisComputer()) !== null) undoNewest(store.db, clock);
          checkInvariants(store.db);
          expect(savedData(store.db)).toEqual(start);
        } finally {
          store.close();
          fs.rmSync(dir, { recursive: true, force: true });
        }
      }),
      {
        // Each run a new store: on a server a new database, so fewer runs there.
        numRuns: stores.kind === 'sqlite' ? 80 : 20,
        // One run that surely revives (import, undo, the same file again): 20 random runs on a server did
        // not always (a clean clone's run found none once), and the revival is what matters most here.
        examples: [
          [[{ kind: 'import', doc: 0, asNew: false }, { kind: 'undo' }, { kind: 'import', doc: 0, asNew: false }]],
        ],
      },
    );
    // The runs did revive documents: the property was tested where it matters most.
    expect(stats.revivals).toBeGreaterThanOrEqual(stores.kind === 'sqlite' ? 3 : 1);
  }, 300_000);
});
