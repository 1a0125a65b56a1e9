import { BrickWorkError, quote } from '../../vocabulary/errors.ts';
import { colourNameKey } from '../../placement/fold.ts';
import type { CsvTable } from '../../text/csv.ts';
import { JsonReader, JsonRefusal, type JsonHandler } from '../../text/json-stream.ts';
import { parseError } from '../../text/position.ts';
import {
  RELATIONSHIP_TYPES,
  type CatalogueFile,
  type ColourVocabulary,
  type RelationshipType,
  type TranslationRecord,
} from '../records.ts';
import { requiredId, requiredText } from './fields.ts';

/**
 * The translation tables (SPEC §5: other numberings), each told by its content: BrickLink's codes
 * download, Rebrickable's elements.csv and part_relationships.csv (CSV), Rebrickable's colour list with
 * its external ids (the API's JSON) and its part cross-references (a RON text). Each returns null when the
 * content is not its own, and refuses in words when it is but a value is wrong.
 */

/** BrickLink's codes download: `Item No`, `Color` (a BrickLink colour *name*), `Code` (LEGO's element id). */
export function readBrickLinkCodes(name: string, table: CsvTable): CatalogueFile | null {
  const h = table.header.map((c) => c.trim().toLowerCase());
  const [no, colour, code] = [h.indexOf('item no'), h.indexOf('color'), h.indexOf('code')];
  if (no < 0 || colour < 0 || code < 0) return null;
  const records: TranslationRecord[] = table.rows.map(({ line, cells }) => ({
    kind: 'element',
    elementId: elementId(cells[code], name, line),
    numbering: 'bricklink',
    no: requiredText(cells[no], 'item number', name, line),
    colour: requiredText(cells[colour], 'colour name', name, line),
  }));
  return { name, format: 'BrickLink codes (element ids)', source: `bricklink:${name}`, records };
}

/** Rebrickable's CSV translation tables: elements.csv and part_relationships.csv. */
export function readRebrickableTranslations(name: string, table: CsvTable): CatalogueFile | null {
  const h = table.header.map((c) => c.trim().toLowerCase());
  const source = `rebrickable:${name}`;
  if (h[0] === 'element_id' && h.includes('part_num') && h.includes('color_id')) {
    const [part, colour] = [h.indexOf('part_num'), h.indexOf('color_id')];
    const records: TranslationRecord[] = table.rows.map(({ line, cells }) => ({
      kind: 'element',
      elementId: elementId(cells[0], name, line),
      numbering: 'rebrickable',
      no: requiredText(cells[part], 'part number', name, line),
      colour: String(requiredId(cells[colour], 'colour id', name, line)),
    }));
    return { name, format: 'Rebrickable elements.csv (element ids)', source, records };
  }
  if (h[0] === 'rel_type' && h[1] === 'child_part_num' && h[2] === 'parent_part_num') {
    const records: TranslationRecord[] = table.rows.map(({ line, cells }) => ({
      kind: 'relationship',
      relType: relationshipType(cells[0], name, line),
      child: requiredText(cells[1], 'child part number', name, line),
      parent: requiredText(cells[2], 'parent part number', name, line),
    }));
    return { name, format: 'Rebrickable part_relationships.csv', source, records };
  }
  return null;
}

function elementId(value: string | undefined, file: string, line: number): string {
  const v = requiredText(value, 'element id', file, line);
  if (!/^\d{1,12}$/.test(v)) throw parseError(file, `line ${line}: the element id "${quote(v)}" is not a number`);
  return v;
}

function relationshipType(value: string | undefined, file: string, line: number): RelationshipType {
  const v = requiredText(value, 'relationship type', file, line).toUpperCase();
  if (!(RELATIONSHIP_TYPES as readonly string[]).includes(v)) {
    throw parseError(
      file,
      `line ${line}: the relationship type "${quote(v)}" is none of Rebrickable's (${RELATIONSHIP_TYPES.join(', ')})`,
    );
  }
  return v as RelationshipType;
}

/** A colour of Rebrickable's list as its JSON gives it; only `id`, `name` and `external_ids` are checked. */
interface ApiColour {
  readonly id: number;
  readonly name: string;
  readonly external_ids: unknown;
}

/** How deep Rebrickable's colour list nests (results, a colour, its external ids, a system, its names: 7), with room. */
const COLOUR_LIST_DEPTH = 32;
/**
 * The most text one colour of the list may take (its names and ids in four systems are a few KB), and so
 * the most one string may hold: what the reader keeps at any time is one colour, whatever the file's size.
 */
const COLOUR_BYTES = 1024 * 1024;

/**
 * Rebrickable's colour list as its API gives it (`/api/v3/lego/colors/`, each colour with its BrickLink,
 * LDraw and LEGO ids and names): the colour table. A Rebrickable, LDraw or LEGO id, or a name in any of
 * their words ("BRICK YELLOW", "Trans_Black", BrickLink's older names), is translated to one BrickLink id;
 * one that two colours claim, or that BrickLink has no colour for, to none (null).
 *
 * Read as its text comes (`write`, then `end`): one colour of "results" is built at a time and taken into
 * the table; everything else is only checked as JSON (issue 62), to a depth of 32.
 */
export function colourTableReader(name: string): {
  write(text: string): void;
  /** The line and column just after what was written (`JsonReader.where`). */
  where(): { line: number; column: number };
  end(): CatalogueFile;
} {
  const table = new ColourTable();
  const shape = new ColourListShape((colour) => table.take(colour));
  const reader = new JsonReader(name, shape, { maxDepth: COLOUR_LIST_DEPTH, maxToken: COLOUR_BYTES });
  return {
    write: (text) => reader.write(text),
    where: () => reader.where(),
    end() {
      reader.end();
      if (!shape.isColourList()) {
        throw new BrickWorkError(
          'parse-error',
          `${name} is a JSON file, but not Rebrickable's colour list with its external ids (an object whose "results" are colours with "id", "name" and "external_ids").`,
        );
      }
      return {
        name,
        format: 'Rebrickable colours with external ids (colour table)',
        source: `rebrickable:${name}`,
        records: table.records(),
      };
    },
  };
}

/** The colour table of a whole text (`colourTableReader`). */
export function readRebrickableColourTable(name: string, text: string): CatalogueFile {
  const reader = colourTableReader(name);
  reader.write(text);
  return reader.end();
}

/**
 * Follows the JSON's shape: an object whose "results" member is an array of colours. Each colour is
 * built (`ValueBuilder`) and handed on as it closes; any other member is passed over unbuilt.
 */
class ColourListShape implements JsonHandler {
  private depth = 0;
  /** The root object's member whose value comes next. */
  private member: string | null = null;
  private results = 0;
  private colours = 0;
  private inResults = false;
  private wrong = false;
  private colour: ValueBuilder | null = null;

  constructor(private readonly onColour: (colour: ApiColour) => void) {}

  isColourList(): boolean {
    return !this.wrong && this.results === 1 && this.colours > 0;
  }

  openObject(): void {
    if (this.colour !== null) this.colour.openObject();
    else if (this.depth === 0) this.member = null;
    else if (this.depth === 1 && this.member === 'results') this.wrong = true;
    else if (this.depth === 2 && this.inResults) {
      this.colour = new ValueBuilder(COLOUR_BYTES);
      this.colour.openObject();
    }
    this.depth++;
  }

  openArray(): void {
    if (this.colour !== null) this.colour.openArray();
    else if (this.depth === 0) this.wrong = true;
    else if (this.depth === 1 && this.member === 'results') {
      this.inResults = true;
      this.results++;
    } else if (this.depth === 2 && this.inResults) this.wrong = true;
    this.depth++;
  }

  close(): void {
    this.depth--;
    if (this.colour !== null) {
      if (this.depth > 2) {
        this.colour.close();
        return;
      }
      const colour = this.colour.value();
      this.colour = null;
      if (isApiColour(colour)) {
        this.colours++;
        this.onColour(colour);
      } else this.wrong = true;
    } else if (this.depth === 1 && this.inResults) this.inResults = false;
  }

  key(key: string): void {
    if (this.colour !== null) this.colour.key(key);
    else if (this.depth === 1) this.member = key;
  }

  scalar(value: string | number | boolean | null): void {
    if (this.colour !== null) this.colour.scalar(value);
    else if (
      this.depth === 0 ||
      (this.depth === 1 && this.member === 'results') ||
      (this.depth === 2 && this.inResults)
    )
      this.wrong = true;
  }
}

/** One value of a JSON file built as its reader tells it, refused past `maxChars` of content. */
class ValueBuilder implements JsonHandler {
  private root: unknown = undefined;
  /** The open containers, innermost last, each with the member name its next value goes under. */
  private readonly open: { container: Record<string, unknown> | unknown[]; key: string }[] = [];
  private size = 0;

  constructor(private readonly maxChars: number) {}

  value(): unknown {
    return this.root;
  }

  openObject(): void {
    // No prototype: a member named "__proto__" is a member like any other.
    const object = Object.create(null) as Record<string, unknown>;
    this.add(object, 0);
    this.open.push({ container: object, key: '' });
  }

  openArray(): void {
    const array: unknown[] = [];
    this.add(array, 0);
    this.open.push({ container: array, key: '' });
  }

  close(): void {
    this.open.pop();
  }

  key(key: string): void {
    const top = this.open.at(-1);
    if (top !== undefined) top.key = key;
    this.count(withoutNul(key).length);
  }

  scalar(value: string | number | boolean | null): void {
    this.add(value, typeof value === 'string' ? withoutNul(value).length : 0);
  }

  private add(value: unknown, chars: number): void {
    // A value's own cost, whatever its content: a million empty arrays take memory too.
    this.count(chars + 8);
    const top = this.open.at(-1);
    if (top === undefined) this.root = value;
    else if (Array.isArray(top.container)) top.container.push(value);
    else top.container[top.key] = value;
  }

  private count(chars: number): void {
    this.size += chars;
    if (this.size > this.maxChars)
      throw new JsonRefusal(
        `a colour of "results" is larger than ${(this.maxChars / 1024 / 1024).toLocaleString('en-US')} MB; no colour of Rebrickable's list is more than a few KB`,
        'too-big',
      );
  }
}

/** A catalogue file's text holds no NUL (a server's text can't store one), escaped in JSON or not. */
function withoutNul(text: string): string {
  if (text.includes('\u0000'))
    throw new JsonRefusal('a string of the JSON holds a NUL character (\\u0000), which no catalogue file holds');
  return text;
}

function isApiColour(value: unknown): value is ApiColour {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const c = value as Partial<Record<keyof ApiColour, unknown>>;
  return Number.isInteger(c.id) && typeof c.name === 'string' && typeof c.external_ids === 'object';
}

/** The colour table's rows as colours are taken: an id or name two colours claim translates to none. */
class ColourTable {
  private readonly rows = new Map<string, { numbering: ColourVocabulary; key: string; bricklinkId: number | null }>();

  take(c: ApiColour): void {
    const bricklink = ids(c, 'BrickLink')[0] ?? null;
    this.claim('rebrickable', String(c.id), bricklink);
    for (const id of ids(c, 'LDraw')) this.claim('ldraw', String(id), bricklink);
    for (const id of ids(c, 'LEGO')) this.claim('lego', String(id), bricklink);
    for (const n of [c.name, ...names(c, 'LEGO'), ...names(c, 'LDraw'), ...names(c, 'BrickLink')])
      this.claim('name', colourNameKey(n), bricklink);
  }

  records(): TranslationRecord[] {
    return [...this.rows.values()].map((r) => ({ kind: 'colour-translation' as const, ...r }));
  }

  private claim(numbering: ColourVocabulary, key: string, bricklinkId: number | null): void {
    if (key === '') return;
    const k = `${numbering}\u0000${key}`;
    const had = this.rows.get(k);
    // Two colours that claim one id or name: it can't be told which, so it translates to none.
    if (had !== undefined && had.bricklinkId !== bricklinkId) this.rows.set(k, { ...had, bricklinkId: null });
    else this.rows.set(k, { numbering, key, bricklinkId });
  }
}

/** A system's entry of a colour's external ids (`{ ext_ids: [...], ext_descrs: [[...]] }`), or null. */
function externalOf(c: ApiColour, system: string): Record<string, unknown> | null {
  const all = c.external_ids;
  if (typeof all !== 'object' || all === null || Array.isArray(all)) return null;
  const entry = (all as Record<string, unknown>)[system];
  return typeof entry === 'object' && entry !== null && !Array.isArray(entry)
    ? (entry as Record<string, unknown>)
    : null;
}

function ids(c: ApiColour, system: string): number[] {
  const list = externalOf(c, system)?.['ext_ids'];
  return Array.isArray(list) ? list.filter((x): x is number => Number.isInteger(x)) : [];
}

function names(c: ApiColour, system: string): string[] {
  const list = externalOf(c, system)?.['ext_descrs'];
  return Array.isArray(list) ? list.flat().filter((n): n is string => typeof n === 'string') : [];
}

const CROSSREF = /^\s*"([^"]+)"\s*:\s*\((.*)\),?\s*$/;

/**
 * Rebrickable's part cross-references as a RON text (`"3069b": (ldraw: "3069b", external_ids:
 * {"BrickLink": ["3069"], …})`): each Rebrickable part number with its BrickLink numbers and its LDraw one.
 */
export function readPartCrossrefs(name: string, text: string): CatalogueFile | null {
  if (!/external_ids\s*:/.test(text.slice(0, 64 * 1024)) || !/^\s*(\/\/.*\n\s*)*\w+\s*\(/.test(text)) return null;
  const records: TranslationRecord[] = [];
  const lines = text.split(/\r\n?|\n/);
  lines.forEach((raw, i) => {
    const m = CROSSREF.exec(raw);
    if (m === null) return;
    const rebrickable = m[1] as string;
    const body = m[2] as string;
    const ldraw = /\bldraw\s*:\s*(?:Some\()?"([^"]+)"/.exec(body)?.[1];
    if (ldraw !== undefined) records.push({ kind: 'part-number', rebrickable, numbering: 'ldraw', no: ldraw });
    const bricklink = /"BrickLink"\s*:\s*\[([^\]]*)\]/.exec(body)?.[1] ?? '';
    for (const b of bricklink.matchAll(/"([^"]+)"/g)) {
      records.push({ kind: 'part-number', rebrickable, numbering: 'bricklink', no: b[1] as string });
    }
    if (rebrickable.length > 100) throw parseError(name, `line ${i + 1}: the part number is too long`);
  });
  if (records.length === 0) {
    throw parseError(
      name,
      'it looks like a part cross-reference file, but no part in it names a BrickLink or LDraw number',
    );
  }
  return { name, format: 'Rebrickable part cross-references', source: `rebrickable:${name}`, records };
}
