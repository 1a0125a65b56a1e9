import fs from 'node:fs';
import { expect, it, onTestFinished } from 'vitest';
import type { CallName } from '../../src/api/contract.ts';
import { SYSTEM_CLOCK } from '../../src/platform/clock.ts';
import { identityOf } from '../../src/identity/owner.ts';
import { loadCatalogue } from '../../src/catalogue/load.ts';
import { openStore } from '../../src/store/open.ts';
import { bytes, files, gzip } from '../helpers/catalogue-files.ts';
import { file, orderXml } from '../helpers/documents.ts';
import { needs } from '../helpers/needs.ts';
import { serviceFor } from '../helpers/service.ts';
import { sharedFile } from '../helpers/shared-data.ts';
import { describeEachStore, newStoreLocation } from '../helpers/stores.ts';

/** Issue 43, point 4: BrickLink's items downloads (one file per kind, no type column) load as the kind they are. */

const me = identityOf();

async function newStore() {
  const path = newStoreLocation();
  const store = await openStore(path);
  onTestFinished(() => store.close());
  return { path, db: store.db };
}

function itemTypes(db: Awaited<ReturnType<typeof newStore>>['db']): Record<string, number> {
  const rows = db.prepare('SELECT item_type AS t, count(*) AS n FROM catalogue_item GROUP BY item_type').all() as {
    t: string;
    n: number;
  }[];
  return Object.fromEntries(rows.map((r) => [r.t, Number(r.n)]));
}

describeEachStore('BrickLink items downloads load as their kind (issue 43, point 4)', () => {
  it("Minifigures.txt loads as minifigures and Sets.txt.gz as sets, and a BrickLink order's M and S lines place on them", async () => {
    const { path, db } = await newStore();
    const loaded = await loadCatalogue(
      db,
      path,
      [
        {
          name: 'Minifigures.txt',
          content: bytes(
            files.bricklinkItemsTab([
              { no: 'sw0001a', name: 'Battle Droid Tan with Back Plate' },
              { no: 'njo0658', name: 'Lloyd - Core' },
            ]),
          ),
        },
        { name: 'Sets (1).txt.gz', content: gzip(files.bricklinkItemsTab([{ no: '10190-1', name: 'Market Street' }])) },
        { name: 'Parts.txt', content: bytes(files.bricklinkItemsTab([{ no: '3001', name: 'Brick 2 x 4' }])) },
      ],
      { type: null, me, clock: SYSTEM_CLOCK },
    );
    expect(loaded.items).toBe(4);
    expect(itemTypes(db)).toEqual({ M: 2, S: 1, P: 1 });

    const service = serviceFor(db, path);
    const call = async <T>(name: CallName, args: object): Promise<T> => {
      const r = (await service.call(name, args)) as { ok: true; value: T } | { ok: false; error: unknown };
      if (!r.ok) throw new Error(`${name}: ${JSON.stringify(r.error)}`);
      return r.value;
    };
    const [imported] = await call<{ order: { id: number } }[]>('import.confirm', {
      file: file(
        'orders.xml',
        orderXml([
          {
            id: '7001',
            lines: [
              { type: 'M', no: 'sw0001a', qty: 2 },
              { type: 'M', no: 'njo0658' },
              { type: 'S', no: '10190-1' },
              { type: 'P', no: 'sw0001a' },
            ],
          },
        ]),
      ),
    });
    const lines = await call<
      { given: { type: string | null; no: string | null }; placed: { type: string; no: string } | null }[]
    >('lines.list', { orderId: imported?.order.id });
    expect(lines.map((l) => [l.given.type, l.given.no, l.placed ? `${l.placed.type} ${l.placed.no}` : null])).toEqual([
      ['M', 'sw0001a', 'M sw0001a'],
      ['M', 'njo0658', 'M njo0658'],
      ['S', '10190-1', 'S 10190-1'],
      // A part numbered as a minifigure is not that minifigure.
      ['P', 'sw0001a', null],
    ]);
  });

  it('a download whose name says no kind is refused in words until one is chosen, and then loads as that kind', async () => {
    const { path, db } = await newStore();
    const items = {
      name: 'catalog-export.txt',
      content: bytes(files.bricklinkItemsTab([{ no: '10190-1', name: 'Market Street' }])),
    };
    const started: (string | null)[] = [];
    const service = serviceFor(db, path, {
      jobs: { startCatalogueLoad: (_f, type) => void started.push(type), startLookup: () => 0 },
    });
    const refused = (await service.call('catalogue.load', { files: [items] })) as {
      ok: false;
      error: { code: string; message: string };
    };
    expect(refused.ok).toBe(false);
    expect(refused.error.code).toBe('needs-type');
    expect(refused.error.message).toBe(
      'catalog-export.txt is a list of BrickLink items, and neither it nor its name says which kind (BrickLink names ' +
        'its downloads Parts, Minifigures, Sets, Gear, Books, Catalogs, Instructions, Original Boxes): choose the kind ' +
        'of item it holds and load it again.',
    );
    expect(started).toEqual([]);
    // Gzipped, the same: the refusal reads the file's first line before any job starts.
    const zipped = { name: 'catalog-export.txt.gz', content: gzip(files.bricklinkItemsTab([{ no: 'x', name: 'y' }])) };
    expect(((await service.call('catalogue.load', { files: [zipped] })) as { ok: boolean }).ok).toBe(false);
    // Other files need no kind; a chosen kind is passed on as chosen.
    const colours = { name: 'colors.txt', content: bytes(files.bricklinkColoursTab([{ id: 1, name: 'White' }])) };
    expect(((await service.call('catalogue.load', { files: [colours] })) as { ok: boolean }).ok).toBe(true);
    expect(((await service.call('catalogue.load', { files: [items], type: 'S' })) as { ok: boolean }).ok).toBe(true);
    expect(started).toEqual([null, 'S']);

    await expect(loadCatalogue(db, path, [items], { type: null, me, clock: SYSTEM_CLOCK })).rejects.toMatchObject({
      code: 'needs-type',
    });
    expect(itemTypes(db)).toEqual({});
    await loadCatalogue(db, path, [items], { type: 'S', me, clock: SYSTEM_CLOCK });
    expect(itemTypes(db)).toEqual({ S: 1 });
  });

  const minifigures = sharedFile('bricklink', 'Minifigures.txt.gz');
  const sets = sharedFile('bricklink', 'Sets.txt.gz');
  const realTest = "BrickLink's real Minifigures and Sets downloads load as 18,149 minifigures and 20,952 sets";
  it.runIf(needs(minifigures !== null && sets !== null, 'the real data in ../shared/data/bricklink', realTest))(
    realTest,
    async () => {
      const { path, db } = await newStore();
      await loadCatalogue(
        db,
        path,
        [minifigures, sets].map((f) => ({ name: f!.split('/').pop()!, content: fs.readFileSync(f!) })),
        { type: null, me, clock: SYSTEM_CLOCK },
      );
      expect(itemTypes(db)).toEqual({ M: 18149, S: 20952 });
      const named = db
        .prepare(
          "SELECT item_type AS t, item_no AS no FROM catalogue_item WHERE item_no IN ('sw0001a', 'njo0658', '10190-1') ORDER BY item_no",
        )
        .all();
      expect(named).toEqual([
        { t: 'S', no: '10190-1' },
        { t: 'M', no: 'njo0658' },
        { t: 'M', no: 'sw0001a' },
      ]);
    },
    120_000,
  );
});
