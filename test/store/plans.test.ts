/**
 * Issue 61 §1 (SPEC §12 "cost as the store grows"): no call reads a table that grows with the shop from
 * end to end, unless it must (a list of every order, a catalogue load placing every line again); those
 * are named below, each with its reason. Every statement the store prepares while every call of the
 * contract runs once, on a store of 100,000 lines, is put to the engine's planner with the values it ran
 * with: SQLite's `EXPLAIN QUERY PLAN`, PostgreSQL's `EXPLAIN`.
 */
import { expect, it, onTestFinished } from 'vitest';
import { CALL_NAMES, type CallName } from '../../src/api/contract.ts';
import { SYSTEM_CLOCK } from '../../src/clock.ts';
import { loadCatalogue } from '../../src/catalogue/load.ts';
import { identityOf } from '../../src/identity/owner.ts';
import { openStore } from '../../src/store/open.ts';
import {
  categoriesOfOrderItems,
  stockLotsForOrder,
  stockLotsOf,
  stockLocationsOfCategory,
  stockLocationsOfItems,
} from '../../src/store/stock.ts';
import { startStandIn, TEST_CREDENTIALS } from '../helpers/bricklink-stand-in.ts';
import { lookupStarter } from '../../src/app/work.ts';
import { bytes, files } from '../helpers/catalogue-files.ts';
import { bsx, file } from '../helpers/documents.ts';
import { growStore, loadGrownCatalogue, UNKNOWN_COLOUR } from '../helpers/grown-store.ts';
import {
  explainable,
  GROWING,
  postgresScans,
  recordStatements,
  sqliteScans,
  type Prepared,
  type Recorder,
  type Scan,
} from '../helpers/plans.ts';
import { serviceFor } from '../helpers/service.ts';
import { describeEachStore } from '../helpers/stores.ts';

type Service = ReturnType<typeof serviceFor>;

const LINES = 100_000;
/** Orders of a hundred lines: a shop's many small orders, so the lists and the history grow as the lines do. */
const ORDER_LINES = 100;

/** Calls that touch no store: they are not driven. */
const OUTSIDE_THE_STORE: Partial<Record<CallName, string>> = {
  'file.pick': "the app's file dialog",
  'shopServer.get': "the app's choice of server, kept beside the store",
  'shopServer.choose': 'connects to another server and keeps the choice beside the store',
  'shopServer.forget': "the app's choice of server, kept beside the store",
};

/**
 * Reads of a growing table from end to end that are meant, each with its reason: the answer is the whole
 * list, or the walk stops after a few rows, or the work is a whole store's. A statement is named by a piece
 * of its text (`sql`), or by the only work that runs it (`by`).
 */
const DELIBERATE: readonly { sql?: string; by?: string; table: string; why: string }[] = [
  {
    sql: 'FROM shop_order o LEFT JOIN document d ON d.order_id = o.id',
    table: 'shop_order',
    why: "orders.list and the summary export list every order (one look-up of each one's documents and tallies)",
  },
  {
    sql: 'FROM shop_order o LEFT JOIN document d ON d.order_id = o.id',
    table: 'document',
    why: "the same list's documents",
  },
  {
    sql: 'FROM shop_order o LEFT JOIN document d ON d.order_id = o.id',
    table: 'document_tally',
    why: "the same list's tallies, on PostgreSQL read in one walk beside the orders'",
  },
  {
    sql: 'FROM document d ORDER BY d.id',
    table: 'document',
    why: 'documents.list without an order lists every document',
  },
  {
    sql: 'SELECT EXISTS (SELECT 1 FROM hand_placement)',
    table: 'hand_placement',
    why: 'whether any memory is kept at all: the first row answers',
  },
  {
    sql: 'FROM undo_step s ORDER BY s.id DESC LIMIT ?',
    table: 'undo_step',
    why: 'history.list: the newest steps, walked from the newest, stopping at the limit',
  },
  {
    sql: "FROM undo_step s WHERE s.state = 'done' AND NOT coalesce(",
    table: 'undo_step',
    why: "a desk's Undo: its newest step, walked from the newest (PostgreSQL by id, SQLite by state), stopping at the desk's first",
  },
  {
    sql: 'FROM taught_name ORDER BY id',
    table: 'taught_name',
    why: 'the suggestion index holds every taught name: read whole when they change, not at each suggestion',
  },
  { sql: 'FROM hand_placement h LEFT JOIN', table: 'hand_placement', why: 'placements.list lists every memory' },
  { sql: 'FROM colour_placement p LEFT JOIN', table: 'colour_placement', why: 'placements.list lists every memory' },
  { sql: 'FROM taught_name t LEFT JOIN', table: 'taught_name', why: 'placements.list lists every memory' },
  {
    sql: "AND nullif(trim(l.given_no), '') IS NULL AND l.given_name IS NOT NULL",
    table: 'order_line',
    why:
      'a memory by name: its names are folded in code, so the lines read are those giving a name and no ' +
      'number that a memory may still move (their own index), not every line',
  },
  {
    sql: 'AND coalesce(l.given_colour_id, 0) = 0 AND l.given_colour_name IS NOT NULL',
    table: 'order_line',
    why:
      'a colour memory by name: folded in code, so the lines read are those giving a colour by name and no ' +
      'id (their own index), not every line',
  },
  { by: 'catalogue.load', table: 'order_line', why: 'a catalogue load places every unplaced saved line again' },
  { by: 'catalogue.load', table: 'document', why: 'a catalogue load places every unplaced saved line again' },
  { by: 'catalogue.load', table: 'shop_order', why: 'a catalogue load says what it placed in every order' },
];

/** Whether a scan of `p` is one of `DELIBERATE`. */
function meant(p: Prepared, scan: Scan): boolean {
  const sql = p.sql.replace(/\s+/g, ' ');
  return DELIBERATE.some(
    (d) =>
      d.table === scan.table &&
      (d.sql === undefined || sql.includes(d.sql)) &&
      (d.by === undefined || (p.by.has(d.by) && p.by.size === 1)),
  );
}

async function ok<T>(
  answer: Promise<{ ok: true; value: T } | { ok: false; error: { code: string; message: string } }>,
) {
  const a = await answer;
  if (!a.ok) throw new Error(`${a.error.code}: ${a.error.message}`);
  return a.value;
}

/** The lines of the newest thousand-line order the calls name, by what they give. */
async function linesOfNewestOrder(service: Service) {
  const orders = await ok(service.call('orders.list', {}));
  const order = orders.filter((o) => o.state === 'open' && o.lines === ORDER_LINES).at(-1);
  if (order === undefined) throw new Error('no order to name');
  const lines = await ok(service.call('lines.list', { orderId: order.id }));
  const find = (what: string, test: (l: (typeof lines)[number]) => boolean) => {
    const line = lines.find((l) => l.placed === null && test(l));
    if (line === undefined) throw new Error(`no unplaced line ${what}`);
    return line;
  };
  return {
    order,
    other: orders.filter((o) => o.state === 'open' && o.id !== order.id).at(-1) ?? order,
    byNumber: find('giving an unknown number', (l) => l.given.no?.startsWith('u') === true),
    byName: find('giving only a name', (l) => l.given.no === null),
    byColour: find('giving an unknown colour', (l) => (l.given.colourId ?? 0) >= UNKNOWN_COLOUR),
    byColourName: find('giving a colour by name', (l) => l.given.colourId === null && l.given.colourName !== null),
    placed: lines.find((l) => l.placed?.by === 'number'),
  };
}

/** Runs every call of the contract once (and a catalogue load), each named to the recorder as it runs. */
async function driveEveryCall(
  service: Service,
  rec: Recorder,
  location: string,
  db: Parameters<typeof loadCatalogue>[0],
) {
  const driven = new Set<string>();
  const run = async <T>(name: CallName, work: () => Promise<T>): Promise<T> => {
    rec.during(name);
    driven.add(name);
    return work();
  };
  /** A call whose refusal here is its answer (a desk named at start), run for what it reads. */
  const refused = (name: CallName, args: object) => run(name, () => service.call(name, args as never));
  const call = <K extends CallName>(name: K, args: Parameters<Service['call']>[1] & object) =>
    run(name, () => ok(service.call(name, args as never)));

  await call('store.info', {});
  const sample = await run('orders.list', () => linesOfNewestOrder(service));
  const { order, other } = sample;
  await call('orders.list', { query: order.reference });
  await call('orders.get', { orderId: order.id });
  const documents = await call('documents.list', { orderId: order.id });
  await call('documents.list', {});
  await call('lines.list', { orderId: order.id, unplacedOnly: true });
  await call('lines.get', { lineId: sample.byNumber.id });
  await call('lines.suggest', { lineId: sample.byNumber.id });
  await call('catalogue.search', { query: 'brick 30' });
  await call('catalogue.search', { query: '3001', by: 'number' });
  await call('catalogue.search', { query: 'odd part', forLine: sample.byName.id });
  await call('catalogue.status', {});
  const colours = (await call('catalogue.colours', {})) as readonly { id: number }[];
  const colour = colours[0]?.id ?? 1;
  await call('lines.place', { lineId: sample.byNumber.id, type: 'P', no: '3001', colourId: null, seen: null });
  await call('lines.place', { lineId: sample.byName.id, type: 'P', no: '3002', colourId: null, seen: null });
  await call('lines.place', { lineId: sample.byColour.id, type: 'P', no: '3003', colourId: colour, seen: null });
  await call('lines.place', { lineId: sample.byColourName.id, type: 'P', no: '3004', colourId: colour, seen: null });
  if (sample.placed?.placed) {
    const { type, no, colour: c } = sample.placed.placed;
    await call('lines.place', {
      lineId: sample.placed.id,
      type: 'P',
      no: '3005',
      colourId: c,
      seen: { type, no, colourId: c },
    });
  }
  // A placement the desk saw changed since is refused, naming the step that changed it.
  await run('lines.place', async () => {
    const refusal = await service.call('lines.place', {
      lineId: sample.byNumber.id,
      type: 'P',
      no: '3001',
      colourId: null,
      seen: null,
    });
    if (refusal.ok || refusal.error.code !== 'line-changed') throw new Error('a changed line was placed');
  });
  const state = await call('history.state', {});
  await call('history.list', {});
  if (state.undo === null) throw new Error('nothing to undo');
  await call('history.undo', { expectedStep: state.undo.id });
  await call('history.redo', { expectedStep: state.undo.id });
  const memories = await call('placements.list', {});
  const item = memories.items.at(-1);
  if (item !== undefined) await call('placements.forget', { kind: 'item', id: item.id });
  const colourMemory = memories.colours.at(-1);
  if (colourMemory !== undefined) await call('placements.forget', { kind: 'colour', id: colourMemory.id });
  const name = memories.names.at(-1);
  if (name !== undefined) await call('placements.forget', { kind: 'name', id: name.id });

  const doc = file(
    'plans.bsx',
    bsx([{ no: '3001', colour }, { no: 'plan-x', name: 'Plan part' }, { name: 'Odd part 7-9' }]),
  );
  const preview = await call('import.preview', { file: doc });
  await call('import.previewLines', { previewId: preview.previewId, document: 0, from: 0, count: 2 });
  const [imported] = await call('import.confirm', { file: doc });
  await call('import.cancel', {});
  if (imported !== undefined) await call('documents.takeBack', { documentId: imported.document.id });

  // The stock (SPEC §16): imported, replaced by a newer file, and its lots read as the pick and put-away lists read them.
  const stock = (bin: string) =>
    file(
      'inventory.bsx',
      bsx([
        { no: '3001', colour, remarks: bin },
        { no: 'plan-x', name: 'Plan part', remarks: 'B2' },
      ]),
    );
  await call('stock.info', {});
  await call('stock.preview', { file: stock('A1') });
  await call('stock.import', { file: stock('A1') });
  await call('stock.import', { file: stock('A10') });
  await call('stock.info', {});
  rec.during('stock lots');
  stockLotsOf(db, { itemType: 'P', itemNo: '3001', colourId: colour });
  stockLotsOf(db, { itemType: 'P', itemNo: '3001' });
  stockLotsForOrder(db, order.id);
  // The pick list (SPEC §16): of a grown order, and of one whose line the stock holds, marked and taken back.
  await call('pick.list', { orderId: order.id });
  const [going] = await call('import.confirm', { file: file('pick.bsx', bsx([{ no: '3001', colour, qty: 1 }])) });
  const picking = going?.order.id ?? 0;
  const walk = await call('pick.list', { orderId: picking });
  const stop = walk.entries[0];
  if (stop === undefined) throw new Error('the pick list has no stop');
  await call('pick.mark', { orderId: picking, key: stop.key, picked: 1 });
  await call('pick.unmark', { orderId: picking, key: stop.key });
  await call('pick.printable', { orderId: picking, paper: 'a4', orientation: 'portrait', pictures: true });
  await call('pick.file', { orderId: picking, as: 'csv' });
  stockLocationsOfItems(db, [
    { type: 'P', no: '3001' },
    { type: 'P', no: '3002' },
  ]);
  categoriesOfOrderItems(db, order.id);
  stockLocationsOfCategory(db, 1);
  // The put-away list of an order coming in, its files, and the stock from BrickLink's API (a stand-in).
  await call('putAway.list', { orderId: order.id, locations: { [String(sample.byNumber.id)]: 'K1' } });
  await call('putAway.export', { orderId: order.id, accept: ['no-bricklink-number', 'no-rebrickable-number'] });
  const standIn = await startStandIn(
    {},
    {
      inventory: [
        {
          inventory_id: 1,
          item: { no: '3001', type: 'PART' },
          color_id: colour,
          quantity: 4,
          new_or_used: 'N',
          remarks: 'A3',
        },
      ],
    },
  );
  await call('settings.set', { key: 'api-url', value: standIn.url });
  await call('stock.lookup', {});

  await call('export.summary', {});
  await call('export.bricklink', { orderId: order.id, accept: ['no-bricklink-number', 'no-rebrickable-number'] });
  await call('export.rebrickable', { orderId: order.id, accept: ['no-bricklink-number', 'no-rebrickable-number'] });
  await call('export.preview', { orderId: order.id, to: 'bricklink' });
  const compared = await call('compare.run', {
    left: { kind: 'order', orderId: order.id },
    right: { kind: 'order', orderId: other.id },
    first: 50,
  });
  await call('compare.run', {
    left: { kind: 'document', documentId: documents[0]?.id ?? 0 },
    right: { kind: 'file', file: doc },
  });
  await call('compare.rows', { compareId: compared.compareId, group: 'same', from: 0, count: 20 });
  await call('compare.export', { compareId: compared.compareId, as: 'csv' });

  await call('settings.get', {});
  await call('settings.set', { key: 'currency', value: 'EUR' });
  await call('settings.setCredentials', { consumerKey: 'k', consumerSecret: 's', token: 't', tokenSecret: 'u' });
  await call('desk.get', {});
  await refused('desk.set', { name: 'front' });
  await call('jobs.list', {});
  const lookup = await call('lookup.start', { limit: 5 });
  await call('jobs.cancel', { jobId: lookup.jobId });
  await call('pictures.get', { items: [{ type: 'P', no: '3001', colour }], lines: [sample.byNumber.id] });
  await call('pictures.status', {});
  await call('pictures.clear', {});
  await call('catalogue.cancel', {});
  const colourFile = { name: 'colors.txt', content: bytes(files.bricklinkColoursTab([{ id: 1, name: 'White' }])) };
  await call('catalogue.load', { files: [colourFile] });
  // The load itself runs on the job runner (a port here): run as it would.
  await run('catalogue.load', () =>
    loadCatalogue(db, location, [colourFile], { type: null, me: identityOf(), clock: SYSTEM_CLOCK }),
  );
  return driven;
}

describeEachStore('every statement a call runs is answered by an index (issue 61 §1)', (stores) => {
  it(`on a store of ${LINES.toLocaleString('en')} lines, no call reads a growing table whole but those named`, async () => {
    const location = stores.location();
    const store = await openStore(location);
    onTestFinished(() => store.close());
    await loadGrownCatalogue(store.db, location);
    const grown = await growStore(store.db, location, LINES, ORDER_LINES);
    expect(grown.lines).toBeGreaterThanOrEqual(LINES);

    const rec = recordStatements(store.db);
    const service = serviceFor(store.db, location, {
      desk: 'front',
      credentials: {
        encrypted: false,
        // The stand-in's, so that stock.lookup is answered.
        get: () => TEST_CREDENTIALS,
        set: () => {},
      },
      // The look-up is queued as the app queues it; its run (the job runner's, against BrickLink) is not driven.
      jobs: { startCatalogueLoad: () => {}, startLookup: lookupStarter(store.db, SYSTEM_CLOCK, () => {}) },
      pictures: {
        bases: () => ({ bricklink: 'https://img.bricklink.com', rebrickable: 'https://cdn.rebrickable.com' }),
        network: () => false,
        answers: (urls) => urls.map(() => ({ state: 'waiting' as const })),
        counts: () => ({ fetched: 0, failed: 0, refused: 0, lastRefused: null, waiting: 0 }),
        cached: () => ({ pictures: 0, missing: 0, bytes: 0 }),
        inMemory: () => null,
        clear: () => {},
      },
    });
    const driven = await driveEveryCall(service, rec, location, store.db);
    rec.during('explain');
    // Every call of the contract ran, but those outside the store.
    expect(CALL_NAMES.filter((n) => !driven.has(n) && OUTSIDE_THE_STORE[n] === undefined)).toEqual([]);

    const server = stores.kind === 'postgres';
    // Planned as SQLite plans, by nested loops and an index wherever one answers: the question is whether
    // an index can answer, not what the planner picks for a table's size today (a memory table of a few
    // hundred rows is rightly read whole; the growth bench times what it picks at a million lines).
    if (server) store.db.exec('SET enable_seqscan = off; SET enable_hashjoin = off; SET enable_mergejoin = off');
    const statements = [...rec.prepared.values()].filter((p) => explainable(p.sql));
    expect(statements.length).toBeGreaterThan(100);
    const found: { p: Prepared; scan: Scan }[] = [];
    for (const p of statements) {
      const scans = server ? postgresScans(store.db, p, GROWING) : sqliteScans(store.db, p, GROWING);
      for (const scan of scans) {
        if (!meant(p, scan)) found.push({ p, scan });
      }
    }
    const said = found.map(
      ({ p, scan }) => `${scan.plan} [${[...p.by].join(', ')}]\n    ${p.sql.replace(/\s+/g, ' ').slice(0, 400)}`,
    );
    expect(said).toEqual([]);
  }, 600_000);
});
