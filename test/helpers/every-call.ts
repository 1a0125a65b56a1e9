/**
 * Every call of the contract run once on a grown store (`growStore`'s), as issue 61's plan test runs them
 * and the dialect check of issue 66 §6: with a recorder (`recordStatements`) on the store's connection,
 * what they gather is every statement the store prepares for the calls.
 */
import { CALL_NAMES, type CallName } from '../../src/api/contract.ts';
import { lookupStarter } from '../../src/app/work.ts';
import { loadCatalogue } from '../../src/catalogue/load.ts';
import { SYSTEM_CLOCK } from '../../src/platform/clock.ts';
import { identityOf } from '../../src/identity/owner.ts';
import type { StoreDb } from '../../src/store/db.ts';
import {
  categoriesOfOrderItems,
  stockLotsForOrder,
  stockLotsOf,
  stockLocationsOfCategory,
  stockLocationsOfItems,
} from '../../src/store/stock.ts';
import { startStandIn, TEST_CREDENTIALS } from './bricklink-stand-in.ts';
import { bytes, files } from './catalogue-files.ts';
import { bsx, file } from './documents.ts';
import { UNKNOWN_COLOUR } from './grown-store.ts';
import type { Recorder } from './plans.ts';
import { ok, serviceFor } from './service.ts';

type Service = ReturnType<typeof serviceFor>;

/** Calls that touch no store: they are not driven. */
const OUTSIDE_THE_STORE: Partial<Record<CallName, string>> = {
  'file.pick': "the app's file dialog",
  'shopServer.get': "the app's choice of server, kept beside the store",
  'shopServer.choose': 'connects to another server and keeps the choice beside the store',
  'shopServer.forget': "the app's choice of server, kept beside the store",
};

/** The lines of the newest order of `orderLines` lines the calls name, by what they give. */
async function linesOfNewestOrder(service: Service, orderLines: number) {
  const orders = await ok(service.call('orders.list', {}));
  const order = orders.filter((o) => o.state === 'open' && o.lines === orderLines).at(-1);
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
async function driveCalls(service: Service, rec: Recorder, location: string, db: StoreDb, orderLines: number) {
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
  const sample = await run('orders.list', () => linesOfNewestOrder(service, orderLines));
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

/**
 * Runs every call of the contract once (and a catalogue load) on the grown store `db` at `location`, whose
 * orders have `orderLines` lines, each call named to `rec` as it runs. Gives the calls that ran.
 */
export async function driveEveryCall(db: StoreDb, location: string, rec: Recorder, orderLines: number) {
  const service = serviceFor(db, location, {
    desk: 'front',
    credentials: {
      encrypted: false,
      // The stand-in's, so that stock.lookup is answered.
      get: () => TEST_CREDENTIALS,
      set: () => {},
    },
    // The look-up is queued as the app queues it; its run (the job runner's, against BrickLink) is not driven.
    jobs: { startCatalogueLoad: () => {}, startLookup: lookupStarter(db, SYSTEM_CLOCK, () => {}) },
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
  return driveCalls(service, rec, location, db, orderLines);
}

/** The calls of the contract `driven` left out, but those that touch no store. */
export function undriven(driven: ReadonlySet<string>): CallName[] {
  return CALL_NAMES.filter((n) => !driven.has(n) && OUTSIDE_THE_STORE[n] === undefined);
}
