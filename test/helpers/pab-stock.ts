/**
 * The real data's Pick a Brick inventory (1,532 lots) as a shop's stock (issue 65), for the tests that
 * pick and put away against it: a store with the Rebrickable tables loaded, and the inventory written as
 * the CSV a shop keeps of its stock — the bins made by the test (the file has none), a lot id each.
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { onTestFinished } from 'vitest';
import { loadCatalogue } from '../../src/catalogue/load.ts';
import { SYSTEM_CLOCK } from '../../src/platform/clock.ts';
import type { ParsedLine } from '../../src/documents/model.ts';
import { readDocumentFile } from '../../src/documents/read-document.ts';
import { formatMoneyE4 } from '../../src/documents/values.ts';
import { identityOf } from '../../src/identity/owner.ts';
import { openStore, type Store } from '../../src/store/open.ts';
import { csv, file } from './documents.ts';
import { serviceFor } from './service.ts';
import { sharedFile } from './shared-data.ts';
import { tempDir } from './temp.ts';

export const PAB = sharedFile('brickstore-bsx', 'PAB_inventory_US_July_22_2012.bsx');

/** The tables the PAB inventory is placed by: Rebrickable's parts (and categories), colours, cross-references. */
export const PAB_TABLES = [
  sharedFile('rebrickable', 'parts.csv.gz'),
  sharedFile('rebrickable', 'part_categories.csv.gz'),
  sharedFile('bricklink', 'colors.txt'),
  sharedFile('rebrickable', 'part-crossrefs.ron.gz'),
  sharedFile('rebrickable', 'colors-api.json.gz'),
];

/** Whether the PAB inventory and its tables are at hand (with `more` files a test also needs). */
export function pabPresent(...more: (string | null)[]): boolean {
  return PAB !== null && [...PAB_TABLES, ...more].every((t) => t !== null);
}

/** A bin for the i-th lot: eight cabinets of forty drawers, several lots a drawer. */
export const binOf = (i: number) => `${'ABCDEFGH'[i % 8] ?? 'A'}-${(Math.floor(i / 8) % 40) + 1}`;

/**
 * A store with the tables loaded, closed when the test ends; the PAB inventory's lots as read; and the
 * stock file: a CSV of them with a `Location` column (`binOf`) and a `Lot ID` each (500,000 on).
 */
export async function pabStore(): Promise<{
  readonly store: Store;
  readonly storePath: string;
  readonly service: ReturnType<typeof serviceFor>;
  readonly lots: readonly ParsedLine[];
  readonly stockFile: { name: string; content: Uint8Array };
}> {
  const storePath = path.join(tempDir(), 'brick-work.sqlite');
  const store = await openStore(storePath);
  onTestFinished(() => store.close());
  await loadCatalogue(
    store.db,
    storePath,
    PAB_TABLES.map((t) => t ?? '').map((t) => ({
      name: path.basename(t).replace(/\.gz$/, ''),
      content: t.endsWith('.gz') ? zlib.gunzipSync(fs.readFileSync(t)) : fs.readFileSync(t),
    })),
    { type: 'P', me: identityOf(), clock: SYSTEM_CLOCK },
  );
  const [inventory] = readDocumentFile(file(path.basename(PAB ?? ''), fs.readFileSync(PAB ?? '')));
  const lots = inventory?.lines ?? [];
  const stockFile = file(
    'PAB stock.csv',
    csv(
      ['Lot ID', 'Item Type', 'Item ID', 'Color ID', 'Qty', 'Price', 'Condition', 'Location'],
      lots.map((l, i) => [
        String(500_000 + i),
        l.given.type ?? '',
        l.given.no ?? '',
        l.given.colourId ?? '',
        l.quantity,
        l.unitPriceE4 === null ? '' : formatMoneyE4(l.unitPriceE4),
        l.condition ?? '',
        binOf(i),
      ]),
    ),
  );
  return { store, storePath, service: serviceFor(store.db, storePath), lots, stockFile };
}
