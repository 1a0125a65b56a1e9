/**
 * SPEC §12's Pick a Brick row (issue 24): the real PAB inventory (1,532 lots, `../shared/data`) names each
 * lot's LEGO element id in its remarks beside the BrickLink item and colour it is. Written as a Pick a Brick
 * list (`elementId,quantity`) and imported into a store with a BrickLink-numbered catalogue and the
 * translation tables, ≥ 98 % of its lines must be placed on the inventory's item and colour — allowing for a
 * number BrickLink renamed since 2012: the inventory's number is no longer in the catalogue, or BrickLink's
 * codes now file that element under the placed number as well as the inventory's (a mould split in two,
 * 3245b and 3245c), and the line is in the inventory's colour. Shared by the bench and its test.
 *
 * The catalogue is BrickLink's numbers as BrickLink's codes download lists them (every BrickLink part that
 * has an element id) plus BrickLink's colours: BrickLink's items download itself is not among the data.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { SYSTEM_CLOCK } from '../src/platform/clock.ts';
import { loadCatalogue } from '../src/catalogue/load.ts';
import { planImport } from '../src/documents/import.ts';
import { identityOf } from '../src/identity/owner.ts';
import { itemNumbers } from '../src/catalogue/item-numbers.ts';
import { openStore } from '../src/store/open.ts';

export interface PabRun {
  readonly lots: number;
  readonly right: number;
  readonly renamed: number;
  /** Placed where BrickLink's codes of today file the element, which the 2012 inventory filed otherwise. */
  readonly refiled: number;
  readonly wrongItem: number;
  readonly wrongColour: number;
  readonly unplaced: number;
  readonly placeMs: number;
  /** A few of the lines not placed right, for the reader of a failing run. */
  readonly examples: readonly string[];
}

const TABLES = [
  ['bricklink', 'colors.txt'],
  ['bricklink', 'codes.txt.gz'],
  ['rebrickable', 'elements.csv.gz'],
  ['rebrickable', 'colors-api.json.gz'],
  ['rebrickable', 'part-crossrefs.ron.gz'],
] as const;

/** The inventory's lots: BrickLink item and colour, and the element id its remarks carry. */
export function pabLots(bsx: string): { no: string; colour: number; element: string }[] {
  return [...bsx.matchAll(/<Item>([\s\S]*?)<\/Item>/g)].flatMap((m) => {
    const item = m[1] ?? '';
    const no = /<ItemID>([^<]*)<\/ItemID>/.exec(item)?.[1];
    const colour = /<ColorID>(\d+)<\/ColorID>/.exec(item)?.[1];
    const element = /Itemname: (\d+),/.exec(item)?.[1];
    return no && colour && element ? [{ no, colour: Number(colour), element }] : [];
  });
}

/** Runs the row on the data in `dataDir`; null when the files it needs are not there. */
export async function runPabElements(
  dataDir: string,
  catalogue: 'bricklink' | 'rebrickable' = 'bricklink',
): Promise<PabRun | null> {
  const file = (...p: string[]) => path.join(dataDir, ...p);
  const inventory = file('brickstore-bsx', 'PAB_inventory_US_July_22_2012.bsx');
  const rebrickableParts = file('rebrickable', 'parts.csv.gz');
  if (![inventory, rebrickableParts, ...TABLES.map((t) => file(...t))].every((f) => fs.existsSync(f))) return null;
  const lots = pabLots(fs.readFileSync(inventory, 'utf8'));
  const codes = zlib.gunzipSync(fs.readFileSync(file('bricklink', 'codes.txt.gz'))).toString('utf8');
  const numbers = [
    ...new Set(
      codes
        .split(/\r?\n/)
        .slice(1)
        .map((l) => l.split('\t')[0] ?? '')
        .filter(Boolean),
    ),
  ];
  const items = `Category ID\tCategory Name\tNumber\tName\n${numbers.map((n) => `1\tParts\t${n}\tPart ${n}`).join('\n')}\n`;

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'brick-work-pab-'));
  const storePath = path.join(dir, 'brick-work.sqlite');
  const store = await openStore(storePath);
  try {
    await loadCatalogue(
      store.db,
      storePath,
      [
        // BrickLink's numbers as its codes list them, or Rebrickable's own parts download (issue 43, point 5).
        catalogue === 'bricklink'
          ? { name: 'Parts.txt', content: Buffer.from(items) }
          : { name: 'parts.csv.gz', content: fs.readFileSync(rebrickableParts) },
        ...TABLES.map((t) => ({ name: t[1], content: fs.readFileSync(file(...t)) })),
      ],
      { type: 'P', me: identityOf(), clock: SYSTEM_CLOCK },
    );
    const list = `elementId,quantity\n${lots.map((l) => `${l.element},1`).join('\n')}\n`;
    const started = performance.now();
    const plan = planImport(store.db, { file: { name: 'pab.csv', content: Buffer.from(list) } });
    const placeMs = performance.now() - started;
    const inCatalogue = store.db
      .prepare<[string], number>("SELECT 1 FROM catalogue_item WHERE item_type = 'P' AND item_no = ?")
      .pluck();
    const bricklinkNumbers = new Set(numbers);
    const filedByRebrickable = store.db
      .prepare<[string, string], number>(
        "SELECT 1 FROM element_code WHERE element_id = ? AND numbering = 'rebrickable' AND item_no = ?",
      )
      .pluck();
    const filedUnder = store.db
      .prepare<[string, string], number>(
        "SELECT 1 FROM element_code WHERE element_id = ? AND numbering = 'bricklink' AND item_no = ?",
      )
      .pluck();
    // The placed item by its BrickLink number (SPEC §5): a Rebrickable catalogue's item is judged by it.
    const lines = plan.documents[0]?.lines ?? [];
    const itemNos = itemNumbers(
      store.db,
      lines.flatMap((l) => (l.placement.item === null ? [] : [l.placement.item])),
    );
    const bricklinkNo = (item: { type: string; no: string }) => itemNos.get(item.type, item.no).bricklink ?? item.no;
    const counts = { right: 0, renamed: 0, refiled: 0, wrongItem: 0, wrongColour: 0, unplaced: 0 };
    // BrickLink's codes of today file the element under the placed item and colour, and no longer as the
    // 2012 inventory did (a number or colour BrickLink changed since): where BrickLink itself puts it.
    const codesColour = store.db
      .prepare<[string, string], string>(
        "SELECT colour FROM element_code WHERE element_id = ? AND numbering = 'bricklink' AND item_no = ?",
      )
      .pluck();
    const colourName = store.db.prepare<[number], string>('SELECT name FROM colour WHERE id = ?').pluck();
    const filedToday = (
      lot: { no: string; colour: number; element: string },
      item: { type: string; no: string },
      colourId: number | null,
    ): boolean => {
      if (codesColour.get(lot.element, lot.no) !== undefined) return false;
      const filed = codesColour.get(lot.element, bricklinkNo(item));
      const name = colourId === null ? undefined : colourName.get(colourId);
      return filed !== undefined && name !== undefined && filed.toLowerCase() === name.toLowerCase();
    };
    const examples: string[] = [];
    lines.forEach((line, i) => {
      const lot = lots[i];
      const p = line.placement;
      if (lot === undefined) return;
      const what = `element ${lot.element} (${lot.no} in colour ${lot.colour})`;
      if (p.item === null) {
        counts.unplaced += 1;
        examples.push(`${what}: unplaced, ${p.reason}`);
      } else if (p.colourId !== lot.colour && !filedToday(lot, p.item, p.colourId)) {
        counts.wrongColour += 1;
        examples.push(`${what}: placed in colour ${p.colourId}`);
      } else if (p.colourId !== lot.colour) {
        counts.refiled += 1;
      } else if (bricklinkNo(p.item).toLowerCase() === lot.no.toLowerCase()) {
        counts.right += 1;
      } else if (
        // BrickLink's codes no longer list the inventory's number at all: renamed since 2012.
        (catalogue === 'bricklink' ? inCatalogue.get(lot.no) === undefined : !bricklinkNumbers.has(lot.no)) ||
        (filedUnder.get(lot.element, lot.no) !== undefined &&
          filedUnder.get(lot.element, bricklinkNo(p.item)) !== undefined) ||
        // A Rebrickable catalogue: the same element, filed by BrickLink under the inventory's number and by
        // Rebrickable under the placed part (each numbering's own table; BrickLink's number renamed since).
        (catalogue === 'rebrickable' &&
          filedUnder.get(lot.element, lot.no) !== undefined &&
          filedByRebrickable.get(lot.element, p.item.no) !== undefined)
      ) {
        counts.renamed += 1;
      } else {
        if (filedToday(lot, p.item, p.colourId)) {
          counts.refiled += 1;
          return;
        }
        counts.wrongItem += 1;
        examples.push(
          `${what}: placed on ${p.item.no}${bricklinkNo(p.item) === p.item.no ? '' : ` (BrickLink ${bricklinkNo(p.item)})`}`,
        );
      }
    });
    return { lots: lots.length, ...counts, placeMs, examples: examples.slice(0, 12) };
  } finally {
    store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
