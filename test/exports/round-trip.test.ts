import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CompareView, ExportFileView, ImportResultView } from '../../src/api/contract.ts';
import { SYSTEM_CLOCK } from '../../src/clock.ts';
import { identityOf } from '../../src/identity/owner.ts';
import { loadCatalogue } from '../../src/catalogue/load.ts';
import { openStore } from '../../src/store/open.ts';
import { needs } from '../helpers/needs.ts';
import { serviceFor } from '../helpers/service.ts';
import { sharedFile } from '../helpers/shared-data.ts';
import { bricklinkXmlProblems } from '../helpers/xml-check.ts';

/**
 * Issue 43, "How it is proven": real BrickStore documents in BrickLink's numbers, imported into a store
 * whose catalogue is Rebrickable's with every translation table, exported to BrickLink XML, and that
 * export compared with the source file (Compare: by type, number, colour and condition): no difference
 * but the lines the export names as left out.
 */
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
const DOCUMENTS = [
  'Inventory for 10190-1 Market Street.bsx',
  'Tie Fighter 9492-1.bsx',
  'PAB_inventory_US_July_22_2012.bsx',
] as const;

const tables = TABLES.map(([dir, name]) => sharedFile(dir, name));
const documents = DOCUMENTS.map((name) => sharedFile('brickstore-bsx', name));
const present = [...tables, ...documents].every((f) => f !== null);
const WHAT = 'BrickStore documents exported to BrickLink XML and compared with their source';

describe.runIf(needs(present, 'the real data in ../shared/data (tables and BrickStore documents)', WHAT))(WHAT, () => {
  let store: Awaited<ReturnType<typeof openStore>>;
  let service: ReturnType<typeof serviceFor>;
  let dir: string;
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'brick-work-round-trip-'));
    const file = path.join(dir, 'brick-work.sqlite');
    store = await openStore(file);
    await loadCatalogue(
      store.db,
      file,
      tables.map((f) => ({ name: path.basename(f ?? ''), content: fs.readFileSync(f ?? '') })),
      { type: null, me: identityOf(), clock: SYSTEM_CLOCK },
    );
    service = serviceFor(store.db, file);
  }, 120_000);
  afterAll(() => {
    store?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const ok = async <T>(p: Promise<unknown>): Promise<T> => {
    const r = (await p) as { ok: true; value: T } | { ok: false; error: { code: string; message: string } };
    if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
    return r.value;
  };

  it.each(DOCUMENTS.map((name, i) => [name, documents[i] ?? ''] as const))(
    '%s: the export, compared with the file, differs only by the lines it names as left out',
    async (name, file) => {
      const source = { name, content: new Uint8Array(fs.readFileSync(file)) };
      const [imported] = await ok<ImportResultView[]>(
        service.call('import.confirm', { file: source, acknowledge: ['colour-number-and-name-disagree'] }),
      );
      const orderId = imported?.order.id ?? 0;
      const exported = await ok<ExportFileView>(
        service.call('export.bricklink', { orderId, accept: ['no-bricklink-number'] }),
      );
      expect(bricklinkXmlProblems(exported.content, 'upload')).toEqual([]);
      const lines = imported?.lines.total ?? 0;
      const leftOut = exported.leftOut ?? [];
      // Every saved line is either a lot of the export or named as left out.
      expect((exported.rows ?? 0) + leftOut.length).toBe(lines);

      const compared = await ok<CompareView>(
        service.call('compare.run', {
          left: { kind: 'file', file: source },
          right: { kind: 'file', file: { name: 'export.xml', content: new TextEncoder().encode(exported.content) } },
        }),
      );
      expect(compared.counts.onlyRight).toBe(0);
      expect(compared.counts.quantityDiffers).toBe(0);
      // What the source has and the export lacks is exactly what the export left out, lot by lot.
      const missing = [...compared.onlyLeft, ...compared.unplaced].reduce((n, r) => n + r.left - r.right, 0);
      expect(missing).toBe(leftOut.reduce((n, l) => n + l.quantity, 0));
      expect(compared.unplaced.every((r) => r.right === 0)).toBe(true);
      console.info(
        `${name}: ${lines} lines, ${exported.rows} exported, ${leftOut.length} left out ` +
          `(${leftOut.filter((l) => l.reason === 'unplaced').length} unplaced); differences beyond them: 0`,
      );
    },
    60_000,
  );
});
