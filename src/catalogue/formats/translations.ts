import { BrickWorkError, quote } from '../../errors.ts';
import { colourNameKey } from '../../placement/fold.ts';
import type { CsvTable } from '../../text/csv.ts';
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

interface ApiColour {
  readonly id: number;
  readonly name: string;
  readonly external_ids?: Readonly<
    Record<
      string,
      { readonly ext_ids?: readonly (number | null)[]; readonly ext_descrs?: readonly (readonly string[])[] }
    >
  >;
}

function isApiColourList(value: unknown): value is { results: ApiColour[] } {
  if (typeof value !== 'object' || value === null) return false;
  const results = (value as { results?: unknown }).results;
  return (
    Array.isArray(results) &&
    results.length > 0 &&
    results.every(
      (c: unknown) =>
        typeof c === 'object' &&
        c !== null &&
        Number.isInteger((c as ApiColour).id) &&
        typeof (c as ApiColour).name === 'string' &&
        typeof (c as ApiColour).external_ids === 'object',
    )
  );
}

/**
 * Rebrickable's colour list as its API gives it (`/api/v3/lego/colors/`, each colour with its BrickLink,
 * LDraw and LEGO ids and names): the colour table. A Rebrickable, LDraw or LEGO id, or a name in any of
 * their words ("BRICK YELLOW", "Trans_Black", BrickLink's older names), is translated to one BrickLink id;
 * one that two colours claim, or that BrickLink has no colour for, to none (null).
 */
export function readRebrickableColourTable(name: string, text: string): CatalogueFile | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (!isApiColourList(value)) {
    throw new BrickWorkError(
      'parse-error',
      `${name} is a JSON file, but not Rebrickable's colour list with its external ids (an object whose "results" are colours with "id", "name" and "external_ids").`,
    );
  }
  const ids = (c: ApiColour, system: string) =>
    (c.external_ids?.[system]?.ext_ids ?? []).filter((x): x is number => Number.isInteger(x));
  const names = (c: ApiColour, system: string) => (c.external_ids?.[system]?.ext_descrs ?? []).flat();
  const rows = new Map<string, { numbering: ColourVocabulary; key: string; bricklinkId: number | null }>();
  const claim = (numbering: ColourVocabulary, key: string, bricklinkId: number | null) => {
    if (key === '') return;
    const k = `${numbering}\u0000${key}`;
    const had = rows.get(k);
    // Two colours that claim one id or name: it can't be told which, so it translates to none.
    if (had !== undefined && had.bricklinkId !== bricklinkId) rows.set(k, { ...had, bricklinkId: null });
    else rows.set(k, { numbering, key, bricklinkId });
  };
  for (const c of value.results) {
    const bricklink = ids(c, 'BrickLink')[0] ?? null;
    claim('rebrickable', String(c.id), bricklink);
    for (const id of ids(c, 'LDraw')) claim('ldraw', String(id), bricklink);
    for (const id of ids(c, 'LEGO')) claim('lego', String(id), bricklink);
    for (const n of [c.name, ...names(c, 'LEGO'), ...names(c, 'LDraw'), ...names(c, 'BrickLink')])
      claim('name', colourNameKey(n), bricklink);
  }
  const records: TranslationRecord[] = [...rows.values()].map((r) => ({ kind: 'colour-translation', ...r }));
  return {
    name,
    format: 'Rebrickable colours with external ids (colour table)',
    source: `rebrickable:${name}`,
    records,
  };
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
