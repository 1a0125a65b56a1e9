/**
 * The query sets of issue 11 ("Suggestions that find renamed parts"), built at run time from the real data
 * beside the project (../shared/data), never copied into it:
 * - `ldrawPairs()`: LDraw's name against Rebrickable's for the same part number, where they differ;
 * - `brickstoreCases()`: the names in the real BrickStore documents that differ from Rebrickable's.
 * Each query is a name; the right answer is its number in the Rebrickable catalogue.
 *
 * A table of equivalents may learn only from the numbers whose hash is even (`numberHashIsEven`), so that
 * what it is measured on (the odd ones) is not what it learned from. Shared by the quality bench, the
 * suggestion tests and the script that learns the table, so everything here is a plain function.
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { readCatalogueFile } from '../src/catalogue/read-file.ts';
import type { CatalogueRecord } from '../src/catalogue/records.ts';
import type { IndexedItem } from '../src/suggest/index.ts';
import { colourLookupsOf } from '../src/placement/element-colour.ts';
import { partColours, type PartColours } from '../src/suggest/part-colours.ts';
import type { ElementTuple } from '../src/store/suggest-index.ts';
import { foldNumber } from '../src/suggest/words.ts';
import { childText, parseXmlTree } from '../src/text/xml.ts';
import { shared } from './shared-data.ts';

/** The count issue 11 names for `brickstoreCases()` on the real data. */
export const EXPECTED_BRICKSTORE_CASES = 98;

/**
 * FNV-1a, 32 bits, over the UTF-8 bytes of `no.trim().toLowerCase()`:
 *   h = 0x811c9dc5; for each byte b: h = ((h XOR b) × 0x01000193) mod 2^32.
 * Even h: the number may be learned from (training); odd h: it is kept for evaluation.
 *
 * (Multiplying by an odd prime keeps the lowest bit, so this parity is in fact 1 XOR the parity of the
 * number of odd bytes; deterministic and about half/half, which is all the split needs.)
 */
export function numberHashIsEven(no: string): boolean {
  let h = 0x811c9dc5;
  for (const b of Buffer.from(no.trim().toLowerCase(), 'utf8')) h = Math.imul(h ^ b, 0x01000193) >>> 0;
  return (h & 1) === 0;
}

/** The fold that decides whether two names "differ": case, and runs of spacing (LDraw's `Brick  2 x  4`). */
export function foldCaseAndSpacing(name: string): string {
  return name.toLowerCase().replace(/\s+/g, ' ').trim();
}

export function namesDiffer(a: string, b: string): boolean {
  return foldCaseAndSpacing(a) !== foldCaseAndSpacing(b);
}

/** LDraw's leading name markers (`~` unofficial/sub-part, `=` alias, `_` physical colour, `|` third party), possibly several. */
export function stripLdrawMarkers(name: string): string {
  return name.replace(/^[\s~=_|]+/, '').trim();
}

export interface LdrawPart {
  /** The number, lower-cased (LDraw's `NUMBER.dat`). */
  readonly no: string;
  /** The name with its markers stripped. */
  readonly name: string;
}

/**
 * The parts of LDraw's parts.lst (`NUMBER.dat   Name`): markers stripped, moved-to entries (`~Moved to …`)
 * skipped, as are lines of another shape; the first line of a number wins.
 */
export function parseLdrawList(text: string): LdrawPart[] {
  const out: LdrawPart[] = [];
  const seen = new Set<string>();
  for (const line of text.split(/\r\n|\n|\r/)) {
    const m = /^\s*(\S+)\.dat\s+(.*)$/i.exec(line);
    if (!m) continue;
    const no = (m[1] as string).toLowerCase();
    const name = stripLdrawMarkers(m[2] as string);
    // A moved-to entry names another part, not this one.
    if (name === '' || /^moved to\b/i.test(name) || seen.has(no)) continue;
    seen.add(no);
    out.push({ no, name });
  }
  return out;
}

/** Rebrickable's part names by lower-cased number, read with the catalogue's own reader (as the app loads it). */
export function rebrickableNames(
  partsCsv: Uint8Array,
  fileName = 'parts.csv.gz',
): Map<string, { no: string; name: string }> {
  const file = readCatalogueFile({ name: fileName, content: partsCsv }, { type: 'P' });
  const names = new Map<string, { no: string; name: string }>();
  for (const r of file.records)
    if (r.kind === 'item' && !names.has(r.no.toLowerCase())) names.set(r.no.toLowerCase(), { no: r.no, name: r.name });
  return names;
}

export interface LdrawPair {
  /** Rebrickable's spelling of the number (the catalogue's). */
  readonly no: string;
  readonly ldrawName: string;
  readonly rebrickableName: string;
}

/** A query set split by `numberHashIsEven`. */
export interface Split<T> {
  /** Hash even: may be learned from. */
  readonly train: readonly T[];
  /** Hash odd: only measured on. */
  readonly evaluation: readonly T[];
}

export type LdrawSets = Split<LdrawPair>;

/** The pairs of LDraw parts that Rebrickable also has under a name that differs, split by `numberHashIsEven`. */
export function ldrawPairsFrom(
  parts: readonly LdrawPart[],
  rebrickable: ReadonlyMap<string, { no: string; name: string }>,
): LdrawSets {
  const train: LdrawPair[] = [];
  const evaluation: LdrawPair[] = [];
  for (const p of parts) {
    const rb = rebrickable.get(p.no);
    if (rb === undefined || !namesDiffer(p.name, rb.name)) continue;
    (numberHashIsEven(rb.no) ? train : evaluation).push({ no: rb.no, ldrawName: p.name, rebrickableName: rb.name });
  }
  return { train, evaluation };
}

export interface BrickStoreCase {
  /** The number as the document gives it. */
  readonly no: string;
  /** The document's ItemName: the query. */
  readonly name: string;
  readonly rebrickableName: string;
}

/**
 * The distinct (number, name) pairs of parts (ItemTypeID P, or none) in BrickStore documents whose name
 * differs from Rebrickable's for that number, where Rebrickable has the number; in the order first met.
 */
export function brickstoreCasesFrom(
  documents: readonly { readonly fileName: string; readonly text: string }[],
  rebrickable: ReadonlyMap<string, { no: string; name: string }>,
): BrickStoreCase[] {
  const out: BrickStoreCase[] = [];
  const seen = new Set<string>();
  for (const doc of documents) {
    const root = parseXmlTree(doc.text, doc.fileName);
    for (const inventory of root.children.filter((c) => c.name === 'Inventory')) {
      for (const item of inventory.children.filter((c) => c.name === 'Item')) {
        const type = childText(item, 'ItemTypeID');
        if (type !== null && type !== '' && type !== 'P') continue;
        const no = childText(item, 'ItemID');
        const name = childText(item, 'ItemName');
        if (!no || !name) continue;
        const key = `${no}\u0000${name}`;
        if (seen.has(key)) continue;
        seen.add(key);
        const rb = rebrickable.get(no.toLowerCase());
        if (rb !== undefined && namesDiffer(name, rb.name)) out.push({ no, name, rebrickableName: rb.name });
      }
    }
  }
  return out;
}

// Both sets read the same 61,770-row catalogue; read it once per file.
const rebrickableCache = new Map<string, Map<string, { no: string; name: string }>>();

function rebrickableAt(dataDir: string): Map<string, { no: string; name: string }> | null {
  const file = path.join(dataDir, 'rebrickable', 'parts.csv.gz');
  if (!fs.existsSync(file)) return null;
  let names = rebrickableCache.get(file);
  if (names === undefined) {
    names = rebrickableNames(fs.readFileSync(file), 'parts.csv.gz');
    rebrickableCache.set(file, names);
  }
  return names;
}

/**
 * The LDraw development set, from `dataDir` (../shared/data by default); null when the data is absent
 * (LDraw's parts.lst.gz or Rebrickable's parts.csv.gz).
 */
export function ldrawPairs(dataDir: string | null = shared()): LdrawSets | null {
  if (dataDir === null) return null;
  const list = path.join(dataDir, 'ldraw', 'parts.lst.gz');
  const rebrickable = rebrickableAt(dataDir);
  if (rebrickable === null || !fs.existsSync(list)) return null;
  return ldrawPairsFrom(parseLdrawList(zlib.gunzipSync(fs.readFileSync(list)).toString('utf8')), rebrickable);
}

/**
 * The BrickStore cases, from every `.bsx` in `dataDir`/brickstore-bsx (../shared/data by default; files in
 * name order); null when the data is absent. On the real data there are `EXPECTED_BRICKSTORE_CASES`.
 */
export function brickstoreCases(dataDir: string | null = shared()): BrickStoreCase[] | null {
  if (dataDir === null) return null;
  const dir = path.join(dataDir, 'brickstore-bsx');
  const rebrickable = rebrickableAt(dataDir);
  if (rebrickable === null || !fs.existsSync(dir)) return null;
  const files = fs
    .readdirSync(dir)
    .filter((f) => f.toLowerCase().endsWith('.bsx'))
    .sort();
  if (files.length === 0) return null;
  return brickstoreCasesFrom(
    files.map((f) => ({ fileName: f, text: fs.readFileSync(path.join(dir, f), 'utf8') })),
    rebrickable,
  );
}

export interface LegoPair {
  /** Rebrickable's spelling of the number (the catalogue's). */
  readonly no: string;
  /** LEGO's own element name (Pick a Brick's), e.g. `PLATE 1X2 W. 1 KNOB`. */
  readonly legoName: string;
  readonly rebrickableName: string;
  /** The inventory line's colour (BrickLink's id, the catalogue's), when it gives one. */
  readonly colour: number | null;
}

export type LegoSets = Split<LegoPair>;

/**
 * Issue 24's set of LEGO's element names: the PAB inventory's lots carry, in their remarks, LEGO's name for
 * the element beside its BrickLink number ("PAB Element ID, Design ID, Color - Itemname: 4211050, 32002,
 * DARK STONE GREY - 1 1/2 M Connecting Bush"). Each distinct (number, name) whose number Rebrickable has
 * (the same number, or the one it cross-references to BrickLink's) and whose name differs from
 * Rebrickable's; split by `numberHashIsEven` as the other sets are.
 */
export function legoNamePairsFrom(
  inventory: string,
  rebrickable: ReadonlyMap<string, { no: string; name: string }>,
  crossrefs: string | null,
): LegoSets {
  const fromBrickLink = new Map<string, string>();
  for (const m of (crossrefs ?? '').matchAll(/^\s*"([^"]+)"\s*:.*"BrickLink"\s*:\s*\[([^\]]*)\]/gm)) {
    for (const b of (m[2] as string).matchAll(/"([^"]+)"/g)) {
      const key = (b[1] as string).toLowerCase();
      if (!fromBrickLink.has(key)) fromBrickLink.set(key, m[1] as string);
    }
  }
  const train: LegoPair[] = [];
  const evaluation: LegoPair[] = [];
  const seen = new Set<string>();
  for (const m of inventory.matchAll(/<Item>([\s\S]*?)<\/Item>/g)) {
    const item = m[1] as string;
    const bricklink = /<ItemID>([^<]+)<\/ItemID>/.exec(item)?.[1]?.trim();
    const legoName = /Itemname: [^,]*, [^,]*, [^-]*? - ([^<]+)<\/Remarks>/.exec(item)?.[1]?.trim();
    const colour = /<ColorID>(\d+)<\/ColorID>/.exec(item)?.[1];
    if (!bricklink || !legoName) continue;
    const rb =
      rebrickable.get(bricklink.toLowerCase()) ??
      rebrickable.get(fromBrickLink.get(bricklink.toLowerCase())?.toLowerCase() ?? '');
    if (rb === undefined || !namesDiffer(legoName, rb.name)) continue;
    const key = `${rb.no}\u0000${legoName}`;
    if (seen.has(key)) continue;
    seen.add(key);
    (numberHashIsEven(rb.no) ? train : evaluation).push({
      no: rb.no,
      legoName,
      rebrickableName: rb.name,
      colour: colour === undefined ? null : Number(colour),
    });
  }
  return { train, evaluation };
}

/** The LEGO element-name set from `dataDir` (../shared/data by default); null when the data is absent. */
export function legoNamePairs(dataDir: string | null = shared()): LegoSets | null {
  if (dataDir === null) return null;
  const inventory = path.join(dataDir, 'brickstore-bsx', 'PAB_inventory_US_July_22_2012.bsx');
  const crossrefs = path.join(dataDir, 'rebrickable', 'part-crossrefs.ron.gz');
  const rebrickable = rebrickableAt(dataDir);
  if (rebrickable === null || !fs.existsSync(inventory)) return null;
  return legoNamePairsFrom(
    fs.readFileSync(inventory, 'utf8'),
    rebrickable,
    fs.existsSync(crossrefs) ? zlib.gunzipSync(fs.readFileSync(crossrefs)).toString('utf8') : null,
  );
}

/**
 * Colours per part number (folded) from the element tables a shop loads beside its catalogue (SPEC §5):
 * Rebrickable's elements.csv and BrickLink's codes download, read with the catalogue's own readers, as
 * the app's index reads them from the store: how many (`colours`), and which in BrickLink's ids
 * (`madeIn`, through BrickLink's colours and Rebrickable's colour table, when they are there); null
 * when neither element table is in `dataDir`.
 */
export function elementColours(
  dataDir: string | null = shared(),
): { parts: Map<string, PartColours>; ranOn: string } | null {
  if (dataDir === null) return null;
  const present = (files: string[]) => files.filter((f) => fs.existsSync(f));
  const files = present([
    path.join(dataDir, 'rebrickable', 'elements.csv.gz'),
    path.join(dataDir, 'bricklink', 'codes.txt.gz'),
  ]);
  if (files.length === 0) return null;
  const read = (f: string) => readCatalogueFile({ name: path.basename(f), content: fs.readFileSync(f) }, { type: 'P' });
  const rows: ElementTuple[] = [];
  for (const f of files)
    for (const r of read(f).records) if (r.kind === 'element') rows.push([r.numbering, r.no, r.colour]);
  const tables = present([
    path.join(dataDir, 'bricklink', 'colors.txt'),
    path.join(dataDir, 'rebrickable', 'colors-api.json.gz'),
  ]);
  const records = tables.flatMap((f) => read(f).records);
  const lookups = colourLookupsOf(
    records.flatMap((r) => (r.kind === 'colour' ? [r] : [])),
    records.flatMap((r) => (r.kind === 'colour-translation' ? [{ ...r, id: r.bricklinkId }] : [])),
  );
  return {
    parts: partColours(rows, lookups),
    ranOn: [...files, ...tables].map((f) => path.basename(f)).join(', '),
  };
}

/** The index's items for a parts file's records, with what the element tables say of each part (as the app's `catalogueItems`). */
export function indexedItems(
  records: readonly CatalogueRecord[],
  elements: ReturnType<typeof elementColours>,
): IndexedItem[] {
  return records.flatMap((r) => {
    if (r.kind !== 'item') return [];
    const part = elements?.parts.get(foldNumber(r.no));
    const made = part?.madeIn ?? [];
    return [
      { type: r.type, no: r.no, name: r.name, colours: part?.colours ?? 0, ...(made.length ? { madeIn: made } : {}) },
    ];
  });
}
