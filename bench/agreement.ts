/**
 * Issue 60's agreement audit (SPEC §12 "agreement"): every real document placed three times, against a
 * Rebrickable-numbered catalogue, a BrickLink-numbered one and one with every table, and the three answers
 * of each line compared through the tables. A line's answers agree when each two are the same item, or
 * items the tables say are the same (`sameAnswer`), in the same colour. A disagreement is explained when no
 * answer is silent (`silentAnswer`): each is unplaced with a reason, carries a `via` that says what was
 * assumed, or is the line's own number read in its own numbering, in its own colour. Shared by the bench row
 * (`agreement.bench.ts`) and its test (`test/bench/agreement.test.ts`), which runs it on fixtures it makes.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { itemNumbers, type ItemKey, type ItemNumbers } from '../src/catalogue/item-numbers.ts';
import { loadCatalogue } from '../src/catalogue/load.ts';
import { readCatalogueFile, type NamedContent } from '../src/catalogue/read-file.ts';
import { SYSTEM_CLOCK } from '../src/platform/clock.ts';
import { planImport } from '../src/documents/import.ts';
import { identityOf } from '../src/identity/owner.ts';
import { NUMBERING_NAMES, numberingOfFormat, type Numbering } from '../src/vocabulary/numberings.ts';
import { WARNING_CODES } from '../src/vocabulary/reading.ts';
import { listColours } from '../src/store/colours.ts';
import type { ReadableDb } from '../src/store/db.ts';
import { openStore, type Store } from '../src/store/open.ts';

/** The three catalogues each document is placed against. */
export const CATALOGUES = ['rebrickable', 'bricklink', 'all'] as const;
export type CatalogueName = (typeof CATALOGUES)[number];
export const CATALOGUE_TITLES: Readonly<Record<CatalogueName, string>> = {
  rebrickable: 'Rebrickable-numbered',
  bricklink: 'BrickLink-numbered',
  all: 'every table',
};

/** One catalogue's answer for a line: the item and colour it is placed on and how, or why it is not. */
export interface Answer {
  readonly item: ItemKey | null;
  readonly colourId: number | null;
  /** The numbering the item's number is in (its catalogue row's source); null when unplaced or not known. */
  readonly numbering: Numbering | null;
  /** How the rule found it: `number`, `name`, `remembered`, `hand`; null when unplaced. */
  readonly by: string | null;
  readonly via: string | null;
  readonly reason: string | null;
}

/** A document line and its three answers. */
export interface AuditedLine {
  readonly document: string;
  readonly position: number;
  /** The numbering its document's numbers are in (`numberingOfFormat`). */
  readonly numbering: Numbering | null;
  readonly given: {
    readonly type: string | null;
    readonly no: string | null;
    readonly name: string | null;
    readonly colourId: number | null;
  };
  readonly answers: Readonly<Record<CatalogueName, Answer>>;
}

/** A line whose answers disagree: the catalogues whose answers are silent (none: explained). */
export interface Disagreement extends AuditedLine {
  readonly silent: readonly CatalogueName[];
  /** Which answers agree, each two, and which are unplaced: `R≠B R≠A B=A; unplaced: R` (`pattern`). */
  readonly pattern: string;
}

export interface AgreementAudit {
  readonly documents: readonly {
    readonly name: string;
    readonly lines: number;
    readonly disagree: number;
    /** What each catalogue's preview warned of (acknowledged: a preview places every line regardless). */
    readonly warnings: readonly string[];
  }[];
  readonly lines: number;
  readonly disagreements: readonly Disagreement[];
  readonly unexplained: number;
  /** Colour names by id (the all-tables store's), for the listing. */
  readonly colourNames: ReadonlyMap<number, string>;
}

/**
 * An item's numbers as the all-tables store's tables give them (`itemNumbers`), or null where that store
 * does not hold that item in the numbering asked (a BrickLink-numbered part, a Rebrickable set).
 */
export type NumbersOf = (item: ItemKey, numbering: Numbering | null) => ItemNumbers | null;

const same = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/** `numbersOf` over the all-tables store, for the items of these answers (a few statements in all). */
export function numbersFrom(all: ReadableDb, answers: readonly Answer[]): NumbersOf {
  const items = answers.flatMap((a) => (a.item === null ? [] : [a.item]));
  const numbers = itemNumbers(all, items);
  return (item, numbering) => {
    if (!numbers.has(item.type, item.no)) return null;
    const n = numbers.get(item.type, item.no);
    // The store's item of that number in another numbering is another item (Rebrickable's 970c04 is not BrickLink's).
    return numbering !== null && n.catalogue === numbering ? n : null;
  };
}

/** Whether the tables give `item` (in `numbering`) the number `no` in `other`: one of the numbers they know for it. */
function knownAs(item: ItemKey, numbering: Numbering | null, other: Numbering, no: string, numbersOf: NumbersOf) {
  return numbersOf(item, numbering)?.known[other].some((k) => same(k, no)) ?? false;
}

/**
 * Whether two answers are the same through the tables: both unplaced; or both placed in the same colour,
 * on items of the same type that are one number in one numbering, or where the tables of the all-tables
 * store (`itemNumbers`: the catalogue's own number, cross-references, element tables) give either item
 * the other's number in the other's numbering.
 */
export function sameAnswer(a: Answer, b: Answer, numbersOf: NumbersOf): boolean {
  if (a.item === null || b.item === null) return a.item === b.item;
  if (a.colourId !== b.colourId || a.item.type !== b.item.type) return false;
  if (a.numbering === b.numbering || a.numbering === null || b.numbering === null) return same(a.item.no, b.item.no);
  return (
    knownAs(a.item, a.numbering, b.numbering, b.item.no, numbersOf) ||
    knownAs(b.item, b.numbering, a.numbering, a.item.no, numbersOf)
  );
}

/**
 * Whether an answer is silent: placed without a `via`, and not the line's own number read in its own
 * numbering and colour. Its own number: the catalogue's item of that number where the catalogue speaks the
 * document's numbering, or an item the tables give that number in it. Its own colour: the given BrickLink id
 * (none for none or 0). An unplaced answer always has a reason; a placed one with a `via` says what it assumed.
 */
export function silentAnswer(line: AuditedLine, answer: Answer, numbersOf: NumbersOf): boolean {
  const { item } = answer;
  if (item === null || answer.via !== null) return false;
  const { no, colourId } = line.given;
  const type = line.given.type?.trim().toUpperCase() || 'P';
  const ownColour = colourId === 0 ? null : colourId;
  if (no === null || line.numbering === null || item.type !== type || answer.colourId !== ownColour) return true;
  const own = answer.numbering === line.numbering && same(item.no, no);
  return !own && !knownAs(item, answer.numbering, line.numbering, no, numbersOf);
}

/** The catalogues' letters in a pattern: R, B, A. */
export const CATALOGUE_LETTERS: Readonly<Record<CatalogueName, string>> = {
  rebrickable: 'R',
  bricklink: 'B',
  all: 'A',
};

/**
 * Which of a line's answers agree, each two (sameness through the tables need not be transitive: BrickLink's
 * 3794b is Rebrickable's 3794b, and also 15573, which Rebrickable's 3794b is not), and which are unplaced:
 * `R≠B R≠A B=A; unplaced: R`.
 */
export function pattern(line: AuditedLine, numbersOf: NumbersOf): string {
  const pairs: string[] = [];
  CATALOGUES.forEach((a, i) => {
    for (const b of CATALOGUES.slice(i + 1)) {
      const is = sameAnswer(line.answers[a], line.answers[b], numbersOf) ? '=' : '≠';
      pairs.push(`${CATALOGUE_LETTERS[a]}${is}${CATALOGUE_LETTERS[b]}`);
    }
  });
  const unplaced = CATALOGUES.filter((c) => line.answers[c].item === null).map((c) => CATALOGUE_LETTERS[c]);
  return `${pairs.join(' ')}${unplaced.length === 0 ? '' : `; unplaced: ${unplaced.join(', ')}`}`;
}

/** Whether a line's three answers agree (each two the same), and if not, which are silent (none: explained). */
export function judge(line: AuditedLine, numbersOf: NumbersOf): { agree: boolean; silent: CatalogueName[] } {
  const answers = CATALOGUES.map((c) => line.answers[c]);
  const agree = answers.every((a, i) => answers.slice(i + 1).every((b) => sameAnswer(a, b, numbersOf)));
  return { agree, silent: agree ? [] : CATALOGUES.filter((c) => silentAnswer(line, line.answers[c], numbersOf)) };
}

/** The acknowledgements a preview is given: every warning, so that its lines are placed as an import would. */
const ACKNOWLEDGE = [...WARNING_CODES];

/** One document's lines as a catalogue places them (a preview: nothing is written), with its warnings. */
function placed(db: ReadableDb, file: NamedContent) {
  const plan = planImport(db, { file, acknowledge: ACKNOWLEDGE });
  if (plan.documents.length === 0) throw new Error(`${file.name}: ${plan.refusal?.message ?? 'no document'}`);
  const lines = plan.documents.flatMap((d) =>
    d.lines.map((l) => ({ line: l, numbering: numberingOfFormat(d.parsed.format) })),
  );
  const items = lines.flatMap((l) => (l.line.placement.item === null ? [] : [l.line.placement.item]));
  const numbers = itemNumbers(db, items);
  const answers = lines.map(({ line }): Answer => {
    const p = line.placement;
    return {
      item: p.item === null ? null : { type: p.item.type, no: p.item.no },
      colourId: p.colourId,
      numbering: p.item === null ? null : numbers.get(p.item.type, p.item.no).catalogue,
      by: p.by,
      via: ('via' in p ? p.via : undefined) ?? null,
      reason: p.reason,
    };
  });
  const warnings = plan.documents.flatMap((d) => d.warnings.map((w) => w.code));
  return { lines, answers, warnings };
}

/** Places each document against each catalogue and compares the answers, line by line. */
export function audit(
  stores: Readonly<Record<CatalogueName, ReadableDb>>,
  files: readonly NamedContent[],
): AgreementAudit {
  const audited: AuditedLine[] = [];
  const documents: { name: string; lines: number; disagree: number; warnings: string[] }[] = [];
  for (const file of files) {
    const by = Object.fromEntries(CATALOGUES.map((c) => [c, placed(stores[c], file)])) as Record<
      CatalogueName,
      ReturnType<typeof placed>
    >;
    const lines = by.all.lines.map(({ line, numbering }, i): AuditedLine => {
      const g = line.given;
      return {
        document: file.name,
        position: line.position,
        numbering,
        given: { type: g.type, no: g.no, name: g.name, colourId: g.colourId },
        answers: Object.fromEntries(CATALOGUES.map((c) => [c, by[c].answers[i] as Answer])) as Record<
          CatalogueName,
          Answer
        >,
      };
    });
    // Each catalogue's preview reads the same file: line for line, the same positions.
    for (const c of CATALOGUES)
      if (by[c].lines.length !== lines.length || by[c].lines.some((l, i) => l.line.position !== lines[i]?.position))
        throw new Error(`${file.name}: its lines are not the same against the ${CATALOGUE_TITLES[c]} catalogue`);
    audited.push(...lines);
    const warnings = CATALOGUES.flatMap((c) => by[c].warnings.map((w) => `${w} (${CATALOGUE_TITLES[c]})`));
    documents.push({ name: file.name, lines: lines.length, disagree: 0, warnings });
  }
  const numbersOf = numbersFrom(
    stores.all,
    audited.flatMap((l) => CATALOGUES.map((c) => l.answers[c])),
  );
  const disagreements: Disagreement[] = [];
  for (const line of audited) {
    const verdict = judge(line, numbersOf);
    if (verdict.agree) continue;
    disagreements.push({ ...line, silent: verdict.silent, pattern: pattern(line, numbersOf) });
    const doc = documents.find((d) => d.name === line.document);
    if (doc !== undefined) doc.disagree++;
  }
  return {
    documents,
    lines: audited.length,
    disagreements,
    unexplained: disagreements.filter((d) => d.silent.length > 0).length,
    colourNames: new Map(listColours(stores.all).map((c) => [c.id, c.name])),
  };
}

/** An answer as the listing shows it: `Rebrickable 970c34 in Black (via …)`, or `unplaced: reason`. */
export function shownAnswer(answer: Answer, colourNames: ReadonlyMap<number, string>): string {
  if (answer.item === null) return `unplaced: ${answer.reason ?? '(no reason)'}`;
  const numbering = answer.numbering === null ? '' : `${NUMBERING_NAMES[answer.numbering]} `;
  const type = answer.item.type === 'P' ? '' : `${answer.item.type} `;
  const colour =
    answer.colourId === null ? '' : ` in ${colourNames.get(answer.colourId) ?? `colour ${answer.colourId}`}`;
  const how = answer.via !== null ? ` (via ${answer.via})` : answer.by === 'number' ? '' : ` (by ${answer.by})`;
  return `${type}${numbering}${answer.item.no}${colour}${how}`;
}

/** A disagreement as the row lists it: the document, the line, what it gave, the three answers, the verdict. */
export function shownDisagreement(d: Disagreement, colourNames: ReadonlyMap<number, string>): string {
  const g = d.given;
  const numbering = d.numbering === null ? '' : `${NUMBERING_NAMES[d.numbering]} `;
  const colour = g.colourId === null ? '' : ` in ${colourNames.get(g.colourId) ?? `colour ${g.colourId}`}`;
  const given = `${g.type && g.type !== 'P' ? `${g.type} ` : ''}${numbering}${g.no ?? '(no number)'}${colour}`;
  const verdict =
    d.silent.length === 0
      ? 'explained'
      : `UNEXPLAINED (silent: ${d.silent.map((c) => CATALOGUE_TITLES[c]).join(', ')})`;
  return [
    `${d.document} line ${d.position}, ${given}${g.name ? ` "${g.name}"` : ''} — ${verdict}: ${d.pattern}`,
    ...CATALOGUES.map((c) => `    ${CATALOGUE_TITLES[c]}: ${shownAnswer(d.answers[c], colourNames)}`),
  ].join('\n');
}

/** Opens a fresh store in a temporary folder and loads `files` into it. */
export async function storeWith(dir: string, name: string, files: readonly NamedContent[]): Promise<Store> {
  const file = path.join(dir, `${name}.sqlite`);
  const store = await openStore(file);
  await loadCatalogue(store.db, file, files, { type: null, me: identityOf(), clock: SYSTEM_CLOCK });
  return store;
}

/** What BrickLink's Parts download, absent from the data, is made of here (`bricklinkParts`). */
export interface BuiltParts {
  /** A BrickLink tab-delimited items file (`Parts.txt`): number and name. */
  readonly file: NamedContent;
  readonly parts: number;
  /** Numbers from BrickLink's codes; more from Rebrickable's cross-references; left out as BrickLink's minifigures. */
  readonly fromCodes: number;
  readonly fromCrossrefs: number;
  readonly minifigures: number;
  /** How each was named: a Rebrickable part the cross-references, or the shared elements, give; neither. */
  readonly named: { readonly crossrefs: number; readonly elements: number; readonly none: number };
}

/** The numbers a table gives each key, each once, in the order met. */
function multimap(): { add(key: string, value: string): void; get(key: string): readonly string[] } {
  const map = new Map<string, string[]>();
  return {
    add: (key, value) => {
      const list = map.get(key.toLowerCase()) ?? [];
      if (!list.includes(value)) list.push(value);
      map.set(key.toLowerCase(), list);
    },
    get: (key) => map.get(key.toLowerCase()) ?? [],
  };
}

const tabCell = (s: string) => (s.includes('"') ? `"${s.replace(/"/g, '""')}"` : s);

/**
 * BrickLink's Parts download as the data can honestly make it: every BrickLink part number BrickLink's
 * codes download lists, and every one Rebrickable's cross-references give, less those BrickLink's
 * minifigures download lists (its minifigures, not parts). Each is named after the Rebrickable part the
 * cross-references say it is (its own number's, where several), else the one most of its elements are
 * (codes → element id → Rebrickable's elements.csv), else `BrickLink part <no>`. No number or name comes
 * from the documents.
 */
export function bricklinkParts(inputs: {
  readonly codes: NamedContent;
  readonly crossrefs: NamedContent;
  readonly elements: NamedContent;
  readonly parts: NamedContent;
  readonly minifigures: NamedContent;
}): BuiltParts {
  const read = (f: NamedContent) => readCatalogueFile(f, { type: null }).records;
  const names = new Map<string, string>();
  for (const r of read(inputs.parts)) if (r.kind === 'item') names.set(r.no.toLowerCase(), r.name);
  const minifigures = new Set<string>();
  for (const r of read(inputs.minifigures)) if (r.kind === 'item') minifigures.add(r.no.toLowerCase());
  const partOfElement = new Map<string, string>();
  for (const r of read(inputs.elements))
    if (r.kind === 'element' && r.numbering === 'rebrickable') partOfElement.set(r.elementId, r.no);
  const numbers = new Map<string, string>();
  const byElements = new Map<string, Map<string, number>>();
  for (const r of read(inputs.codes)) {
    if (r.kind !== 'element' || r.numbering !== 'bricklink') continue;
    numbers.set(r.no.toLowerCase(), numbers.get(r.no.toLowerCase()) ?? r.no);
    const part = partOfElement.get(r.elementId);
    if (part === undefined) continue;
    const counts = byElements.get(r.no.toLowerCase()) ?? new Map<string, number>();
    counts.set(part, (counts.get(part) ?? 0) + 1);
    byElements.set(r.no.toLowerCase(), counts);
  }
  const fromCodes = numbers.size;
  const crossrefs = multimap();
  for (const r of read(inputs.crossrefs)) {
    if (r.kind !== 'part-number' || r.numbering !== 'bricklink') continue;
    numbers.set(r.no.toLowerCase(), numbers.get(r.no.toLowerCase()) ?? r.no);
    crossrefs.add(r.no, r.rebrickable);
  }
  const named = { crossrefs: 0, elements: 0, none: 0 };
  const rows: string[] = [];
  let left = 0;
  for (const no of [...numbers.values()].sort()) {
    if (minifigures.has(no.toLowerCase())) {
      left++;
      continue;
    }
    const byCrossref = crossrefs.get(no).filter((p) => names.has(p.toLowerCase()));
    const crossref = byCrossref.find((p) => same(p, no)) ?? byCrossref[0];
    const counts = [...(byElements.get(no.toLowerCase()) ?? new Map<string, number>())].filter(([p]) =>
      names.has(p.toLowerCase()),
    );
    const element = counts.sort((a, b) => b[1] - a[1])[0]?.[0];
    const part = crossref ?? element;
    named[crossref !== undefined ? 'crossrefs' : element !== undefined ? 'elements' : 'none']++;
    const name = part === undefined ? `BrickLink part ${no}` : (names.get(part.toLowerCase()) ?? '');
    rows.push(`${tabCell(no)}\t${tabCell(name)}`);
  }
  const text = `Number\tName\n${rows.join('\n')}\n`;
  return {
    file: { name: 'Parts.txt', content: new TextEncoder().encode(text) },
    parts: rows.length,
    fromCodes,
    fromCrossrefs: numbers.size - fromCodes,
    minifigures: left,
    named,
  };
}

/** The files of ../shared/data each catalogue is loaded from, and those `bricklinkParts` reads. */
export const REAL_DATA = {
  rebrickable: [
    ['rebrickable', 'parts.csv.gz'],
    ['rebrickable', 'part_categories.csv.gz'],
    ['rebrickable', 'sets.csv.gz'],
    ['bricklink', 'colors.txt'],
  ],
  bricklink: [
    ['bricklink', 'Minifigures.txt.gz'],
    ['bricklink', 'Sets.txt.gz'],
    ['bricklink', 'colors.txt'],
    ['bricklink', 'categories.txt'],
  ],
  all: [
    ['rebrickable', 'parts.csv.gz'],
    ['bricklink', 'colors.txt'],
    ['bricklink', 'codes.txt.gz'],
    ['rebrickable', 'elements.csv.gz'],
    ['rebrickable', 'colors-api.json.gz'],
    ['rebrickable', 'part-crossrefs.ron.gz'],
    ['rebrickable', 'part_relationships.csv.gz'],
    ['bricklink', 'Minifigures.txt.gz'],
    ['bricklink', 'Sets.txt.gz'],
  ],
} as const satisfies Record<CatalogueName, readonly (readonly [string, string])[]>;

const DOCUMENTS = 'brickstore-bsx';

/** The real documents: every file of ../shared/data/brickstore-bsx, by name. */
export function realDocuments(dataDir: string): string[] {
  const dir = path.join(dataDir, DOCUMENTS);
  return fs.existsSync(dir)
    ? fs
        .readdirSync(dir)
        .filter((f) => f.toLowerCase().endsWith('.bsx'))
        .sort()
    : [];
}

/** Whether the documents and every file the three catalogues need are in `dataDir`. */
export function agreementData(dataDir: string): boolean {
  const files = Object.values(REAL_DATA).flatMap((f) => f.map((p) => path.join(dataDir, ...p)));
  return realDocuments(dataDir).length > 0 && files.every((f) => fs.existsSync(f));
}

/** The audit of the real data, with how each catalogue was made (the row's `ranOn`) and how long it took. */
export interface RealAudit {
  readonly audit: AgreementAudit;
  readonly built: BuiltParts;
  readonly catalogues: Readonly<Record<CatalogueName, string>>;
  readonly loadMs: number;
  readonly placeMs: number;
}

/** Builds the three catalogues from ../shared/data in a temporary folder and audits every real document. */
export async function runOnRealData(dataDir: string): Promise<RealAudit> {
  const file = (p: readonly [string, string]): NamedContent => ({
    name: p[1],
    content: fs.readFileSync(path.join(dataDir, ...p)),
  });
  const built = bricklinkParts({
    codes: file(['bricklink', 'codes.txt.gz']),
    crossrefs: file(['rebrickable', 'part-crossrefs.ron.gz']),
    elements: file(['rebrickable', 'elements.csv.gz']),
    parts: file(['rebrickable', 'parts.csv.gz']),
    minifigures: file(['bricklink', 'Minifigures.txt.gz']),
  });
  const loads: Record<CatalogueName, NamedContent[]> = {
    rebrickable: REAL_DATA.rebrickable.map(file),
    bricklink: [built.file, ...REAL_DATA.bricklink.map(file)],
    all: REAL_DATA.all.map(file),
  };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'brick-work-agreement-'));
  const opened: Store[] = [];
  try {
    const started = performance.now();
    for (const c of CATALOGUES) opened.push(await storeWith(dir, c, loads[c]));
    const placing = performance.now();
    const stores = Object.fromEntries(CATALOGUES.map((c, i) => [c, opened[i]?.db])) as unknown as Record<
      CatalogueName,
      ReadableDb
    >;
    const documents = realDocuments(dataDir).map((d) => file([DOCUMENTS, d]));
    const audited = audit(stores, documents);
    const b = built;
    const catalogues = {
      rebrickable: `Rebrickable's ${REAL_DATA.rebrickable
        .slice(0, 3)
        .map((f) => f[1])
        .join(', ')} and BrickLink's colors.txt; no table`,
      bricklink:
        `BrickLink's Parts download made at run time (it is not in the data): ${b.parts} parts, the ${b.fromCodes} numbers of BrickLink's codes.txt and ` +
        `${b.fromCrossrefs} more Rebrickable's cross-references give, less ${b.minifigures} BrickLink lists as minifigures; named after the Rebrickable part ` +
        `the cross-references (${b.named.crossrefs}) or the shared elements (${b.named.elements}) say, else "BrickLink part <no>" (${b.named.none}); ` +
        `and BrickLink's Minifigures, Sets, colors and categories downloads; no table`,
      all: `Rebrickable's parts.csv with every table: ${REAL_DATA.all
        .slice(1)
        .map((f) => f[1])
        .join(', ')}`,
    };
    return {
      audit: audited,
      built,
      catalogues,
      loadMs: placing - started,
      placeMs: performance.now() - placing,
    };
  } finally {
    for (const s of opened) s.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
