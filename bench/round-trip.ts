/**
 * Issue 43's round trip on the real data: BrickStore documents in BrickLink's numbers, imported into a store
 * whose catalogue is Rebrickable's with every translation table, exported to BrickLink XML, and that export
 * compared with the source file (Compare: by type, number, colour, condition). Shared by the bench row and
 * its test (`test/exports/round-trip.test.ts`). An old file's number BrickLink has since merged with others
 * goes under BrickLink's number now, named in the export's `shared` (issue 60 §4): read again, such a lot
 * may come back as another of the items that number names.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { CompareView, ExportFileView, ImportResultView, LineRowView } from '../src/api/contract.ts';
import { SYSTEM_CLOCK } from '../src/platform/clock.ts';
import { identityOf } from '../src/identity/owner.ts';
import { loadCatalogue } from '../src/catalogue/load.ts';
import { openStore } from '../src/store/open.ts';
import { serviceFor } from '../test/helpers/service.ts';

const TABLES = [
  ['rebrickable', 'parts.csv.gz'],
  ['bricklink', 'colors.txt'],
  ['rebrickable', 'part-crossrefs.ron.gz'],
  ['bricklink', 'codes.txt.gz'],
  ['rebrickable', 'elements.csv.gz'],
  ['rebrickable', 'colors-api.json.gz'],
  ['bricklink', 'Minifigures.txt.gz'],
  ['bricklink', 'Sets.txt.gz'],
] as const;

export const ROUND_TRIP_DOCUMENTS = [
  'Inventory for 10190-1 Market Street.bsx',
  'Tie Fighter 9492-1.bsx',
  'PAB_inventory_US_July_22_2012.bsx',
] as const;

export interface RoundTrip {
  readonly name: string;
  readonly lines: number;
  /** Lots written to the export. */
  readonly exported: number;
  readonly leftOut: ExportFileView['leftOut'];
  /** Lots written under a number that names several catalogue items, each with the one it is. */
  readonly shared: NonNullable<ExportFileView['shared']>;
  /** Pieces that came back as another item, or none, when the export was read again. */
  readonly moved: number;
  /** The export as BrickLink XML, for checks of its shape. */
  readonly content: string;
  readonly compared: CompareView;
  /**
   * Pieces the file and the export differ by beyond those of the lines it names as left out, and of the
   * lots it writes under another number than the file's (0: none).
   */
  readonly unexplained: number;
  readonly exportMs: number;
}

/** Whether the files the round trip needs are in `dataDir`. */
export function roundTripData(dataDir: string): boolean {
  return [
    ...TABLES.map((t) => path.join(dataDir, ...t)),
    ...ROUND_TRIP_DOCUMENTS.map((d) => path.join(dataDir, 'brickstore-bsx', d)),
  ].every((f) => fs.existsSync(f));
}

/** Runs the round trip of each document, in one store. */
export async function runRoundTrips(dataDir: string): Promise<RoundTrip[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'brick-work-round-trip-'));
  const file = path.join(dir, 'brick-work.sqlite');
  const store = await openStore(file);
  try {
    await loadCatalogue(
      store.db,
      file,
      TABLES.map((t) => ({ name: t[1], content: fs.readFileSync(path.join(dataDir, ...t)) })),
      { type: null, me: identityOf(), clock: SYSTEM_CLOCK },
    );
    const service = serviceFor(store.db, file);
    const ok = async <T>(p: Promise<unknown>): Promise<T> => {
      const r = (await p) as { ok: true; value: T } | { ok: false; error: { code: string; message: string } };
      if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
      return r.value;
    };
    const out: RoundTrip[] = [];
    for (const name of ROUND_TRIP_DOCUMENTS) {
      const source = { name, content: new Uint8Array(fs.readFileSync(path.join(dataDir, 'brickstore-bsx', name))) };
      const [imported] = await ok<ImportResultView[]>(
        service.call('import.confirm', { file: source, acknowledge: ['colour-number-and-name-disagree'] }),
      );
      const orderId = imported?.order.id ?? 0;
      const started = performance.now();
      const exported = await ok<ExportFileView>(
        service.call('export.bricklink', { orderId, accept: ['no-bricklink-number'] }),
      );
      const exportMs = performance.now() - started;
      const compared = await ok<CompareView>(
        service.call('compare.run', {
          left: { kind: 'file', file: source },
          right: { kind: 'file', file: { name: 'export.xml', content: new TextEncoder().encode(exported.content) } },
        }),
      );
      // Pieces the file has beyond the export, and the export beyond the file. A lot the export writes under
      // BrickLink's number now (an old file's 3626b is 3626, which is Rebrickable's 3626b, 3626c and 28621:
      // the export says which in its remarks and its `shared`) may come back as another item, or none: its
      // pieces are then missing from its own and extra elsewhere.
      const rows = [...compared.onlyLeft, ...compared.onlyRight, ...compared.quantityDiffers, ...compared.unplaced];
      const missing = rows.reduce((n, r) => n + Math.max(0, r.left - r.right), 0);
      const extra = rows.reduce((n, r) => n + Math.max(0, r.right - r.left), 0);
      const leftOut = exported.leftOut ?? [];
      // The pieces of the lots whose number the export changed from the file's: the only ones that can come
      // back as another item (BrickLink renumbered them, or several items share the number it gives them).
      const lines = await ok<LineRowView[]>(service.call('lines.list', { orderId }));
      const notWritten = new Set((exported.leftOut ?? []).map((l) => l.line));
      const numbers = [...exported.content.matchAll(/<ITEMID>([^<]*)<\/ITEMID>/g)].map((m) => m[1] ?? '');
      const renumbered = lines
        .filter((l) => !notWritten.has(l.id))
        .reduce((n, l, i) => n + (numbers[i]?.toLowerCase() === l.given.no?.toLowerCase() ? 0 : l.quantity), 0);
      out.push({
        name,
        lines: imported?.lines.total ?? 0,
        exported: exported.rows ?? 0,
        leftOut,
        content: exported.content,
        compared,
        shared: exported.shared ?? [],
        moved: extra,
        unexplained:
          Math.abs(missing - leftOut.reduce((n, l) => n + l.quantity, 0) - extra) + Math.max(0, extra - renumbered),
        exportMs,
      });
    }
    return out;
  } finally {
    store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
