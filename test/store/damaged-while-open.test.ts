/**
 * Issue 26, point 4 (SPEC §11): SQLite's quick check at the read-write open can't see every damage. When
 * SQLite reports `SQLITE_CORRUPT` later, on any thread of the app, the store is marked damaged for the
 * process: every write is refused with `store-damaged` and how to go back to a backup, the file is left
 * as it was, reads that still work go on, and the screens learn it at once. Suggestions that can't be
 * prepared say why. The core is started as the app and the browser host start it (real worker threads).
 */
import fs from 'node:fs';
import Database from 'better-sqlite3';
import { describe, expect, it, onTestFinished } from 'vitest';
import { STORE_DAMAGED, type ApiEvents, type EventName, type Result } from '../../src/api/contract.ts';
import { startCore } from '../../src/app/core.ts';
import { openStore } from '../../src/store/open.ts';
import { insertColour, insertDocument, insertItem, insertLine, insertOrder } from '../helpers/store-builder.ts';
import { sha256, tempDir } from '../helpers/temp.ts';

type Event = { [E in EventName]: { name: E; payload: ApiEvents[E] } }[EventName];

/** A store with a catalogue of `items` parts and one order of `lines` lines (enough pages to damage some). */
async function store(opts: {
  items: number;
  lines: number;
}): Promise<{ file: string; orderId: number; lineId: number }> {
  const file = `${tempDir()}/brick-work.sqlite`;
  const s = await openStore(file);
  insertColour(s.db, { id: 5, name: 'Red' });
  for (let i = 0; i < opts.items; i++)
    insertItem(s.db, { no: `${3000 + i}`, name: `Brick 2 x ${i} with a longer name` });
  const orderId = insertOrder(s.db, { reference: 'Falcon' });
  const documentId = insertDocument(s.db, { orderId, key: 'Falcon' });
  let lineId = 0;
  for (let i = 0; i < opts.lines; i++)
    lineId = insertLine(s.db, {
      documentId,
      position: i + 1,
      given: { no: `x${i}`, name: `A part that is not in the catalogue, number ${i}`, colourId: 5 },
    });
  s.close();
  return { file, orderId, lineId };
}

/** The pages of a table (its b-tree, root included), as SQLite's dbstat lists them. */
function pagesOf(file: string, table: string): number[] {
  const db = new Database(file, { readonly: true });
  try {
    return (
      db.prepare('SELECT pageno FROM dbstat WHERE name = ? ORDER BY pageno').pluck().all(table) as number[]
    ).filter((p) => p > 1);
  } finally {
    db.close();
  }
}

/** Writes garbage over pages of the file, in place, as a failing disk would. */
function garble(file: string, pages: readonly number[]): void {
  const pageSize = fs.readFileSync(file).readUInt16BE(16);
  const fd = fs.openSync(file, 'r+');
  try {
    const junk = Buffer.alloc(pageSize, 0);
    for (let i = 0; i < pageSize; i++) junk[i] = (i * 131 + 7) & 0xff;
    for (const p of pages) fs.writeSync(fd, junk, 0, pageSize, (p - 1) * pageSize);
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Another connection writes a row of its own: every other connection drops its page cache at its next
 * read (the WAL moved), so the next read of a garbled page reads the disk, as it would after a while.
 */
function touch(file: string): void {
  const db = new Database(file);
  try {
    db.prepare("INSERT OR REPLACE INTO setting (key, value) VALUES ('test.touched', ?)").run(String(Date.now()));
  } finally {
    db.close();
  }
}

async function startApp(file: string) {
  const events: Event[] = [];
  const core = await startCore({
    storePath: file,
    workerUrl: new URL('../../src/app/runner-thread.ts', import.meta.url),
    credentials: { encrypted: false, get: () => null, set: () => {} },
    files: null,
    emit: (name, payload) => events.push({ name, payload } as Event),
    log: () => {},
  });
  onTestFinished(() => core.close());
  await core.threads?.whenReady();
  const call = (name: string, args: unknown) => core.service.call(name, args) as Promise<Result<any>>;
  return { core, events, call };
}

/** The store's files as they are now: the database and its WAL. */
const filesOf = (file: string) => [file, `${file}-wal`].map((f) => (fs.existsSync(f) ? sha256(f) : null)).join(' ');

async function expectEveryWriteRefused(
  app: Awaited<ReturnType<typeof startApp>>,
  file: string,
  lineId: number,
): Promise<void> {
  const before = filesOf(file);
  const writes: [string, unknown][] = [
    ['settings.set', { key: 'currency', value: 'EUR' }],
    ['lines.place', { lineId, type: 'P', no: '3001', colourId: null }],
    [
      'import.confirm',
      { file: { name: 'more.csv', content: new TextEncoder().encode('Part,Color,Quantity\n3001,5,2\n') } },
    ],
    [
      'catalogue.load',
      {
        files: [
          {
            name: 'parts.csv',
            content: new TextEncoder().encode('part_num,name,part_cat_id,part_material\n9999,Thing,1,Plastic\n'),
          },
        ],
      },
    ],
  ];
  for (const [name, args] of writes) {
    const r = await app.call(name, args);
    expect(r.ok, name).toBe(false);
    if (r.ok) continue;
    expect(r.error.code, name).toBe('store-damaged');
    expect(r.error.message, name).toMatch(/is damaged \(.*SQLITE_CORRUPT.*\), so brick-work writes nothing more to it/);
    expect(r.error.message, name).toContain('put back a copy from a backup');
  }
  expect(filesOf(file)).toBe(before);
  // The screens learn it: the store now shows as damaged, with why.
  expect(app.events.some((e) => e.name === 'store.changed' && e.payload.reason === STORE_DAMAGED)).toBe(true);
  const info = await app.call('store.info', {});
  expect(info.ok && info.value.readOnly).toMatchObject({
    damaged: true,
    reason: expect.stringContaining('SQLITE_CORRUPT'),
  });
}

describe('a store found damaged while it is open is never written again by this process (issue 26, point 4)', () => {
  it('the screens’ thread meets the damage (a read of the lines): every write after it is refused, on every thread', async () => {
    const { file, orderId, lineId } = await store({ items: 50, lines: 3000 });
    const app = await startApp(file);
    garble(file, pagesOf(file, 'order_line'));
    touch(file);
    const read = await app.call('lines.list', { orderId });
    expect(read).toMatchObject({ ok: false, error: { code: 'store-damaged' } });
    // Reads that still work go on.
    const orders = await app.call('orders.list', {});
    expect(orders.ok && orders.value.map((o: { reference: string }) => o.reference)).toEqual(['Falcon']);
    await expectEveryWriteRefused(app, file, lineId);
  });

  it('the writer thread meets it (a hand placement reads the line): the main thread refuses the next write too', async () => {
    const { file, lineId } = await store({ items: 50, lines: 3000 });
    const app = await startApp(file);
    garble(file, pagesOf(file, 'order_line'));
    touch(file);
    const placed = await app.call('lines.place', { lineId, type: 'P', no: '3001', colourId: null });
    expect(placed).toMatchObject({ ok: false, error: { code: 'store-damaged' } });
    await expectEveryWriteRefused(app, file, lineId);
  });

  it('a catalogue found damaged at the open: suggestions say why they can’t be made, never "not ready" for good', async () => {
    const { file, lineId } = await store({ items: 3000, lines: 5 });
    const items = pagesOf(file, 'catalogue_item');
    garble(file, items.slice(Math.floor(items.length / 2)));
    const app = await startApp(file);
    expect(app.core.readOnly?.damaged).toBe(true);
    const suggested = await app.call('lines.suggest', { lineId });
    expect(suggested.ok).toBe(true);
    if (!suggested.ok) return;
    expect(suggested.value).toMatchObject({ ready: false, why: { code: 'store-damaged' } });
    expect(suggested.value.why.message).toContain('is damaged');
    const status = await app.call('catalogue.status', {});
    if (status.ok) expect(status.value.suggestionsProblem).toMatchObject({ code: 'store-damaged' });
    else expect(status.error.code).toBe('store-damaged');
  });
});
