/**
 * LDraw models as parts lists (SPEC §8, issue 49): `.ldr`, `.mpd` and `.dat` models, and the `model.ldr`
 * a BrickLink Studio `.io` holds. Each type-1 line names a file in a colour: a submodel the file holds (an
 * MPD `0 FILE` section not marked a part) is expanded, its counts multiplied and its colour 16 taken from
 * the line that uses it; any other name is a part — never expanded, as LDraw's library builds parts from
 * sub-parts. A part the model embeds is a line of its own, named as the model names it; a `.ldr`/`.mpd`
 * the file names but does not hold is a line of its own, unplaced, saying so. Parts are counted per
 * (part, colour). Colours are LDraw's codes (`LDraw colour 4`, translated by the colour table); numbers are
 * LDraw's, placed through the cross-references' LDraw ids first (`LDraw part 3001` in the remarks).
 */
import { createHash } from 'node:crypto';
import { BrickWorkError } from '../../vocabulary/errors.ts';
import { DOCUMENT_LINE_LIMIT } from '../../platform/file-limits.ts';
import { ldrawPartRemark, otherNumberingColour } from '../../placement/rule.ts';
import { parseError } from '../../text/position.ts';
import type { ParsedDocument, ParsedLine } from '../model.ts';
import { NO_HEADER } from '../model.ts';

/** Submodels within submodels, at most: deeper is a damaged or hostile file. */
export const MODEL_DEPTH_LIMIT = 64;
/** Parts in one model, at most, counted with every submodel's uses (a MOC of a million parts is beyond any shop). */
export const MODEL_PART_LIMIT = 1_000_000;

/** The colour a submodel's part takes from the line that uses it. */
const MAIN_COLOUR = 16;
/** Lines' edge colour: no part is in it. */
const EDGE_COLOUR = 24;

/** `1 colour x y z a b c d e f g h i file` — the file's name is the rest of the line, spaces and all. */
const PART_LINE = /^\s*1\s+(\S+)(?:\s+\S+){12}\s+(.+?)\s*$/;
const FILE_LINE = /^\s*0\s+FILE\s+(.+?)\s*$/i;
const NOFILE_LINE = /^\s*0\s+NOFILE\s*$/i;
/** `0 !LDRAW_ORG Part …`, `Unofficial_Part`, `Subpart`, `Primitive`, `Shortcut`: a part, not a model. */
const PART_TYPE = /^\s*0\s+!LDRAW_ORG\s+(?:Unofficial_)?(Part|Subpart|Primitive|8_Primitive|48_Primitive|Shortcut)\b/i;

/** A type-1 line: a file used in a colour. */
interface Use {
  readonly colour: string;
  readonly file: string;
  /** What it names, once asked (`targetOf`). */
  target: Target | undefined;
}

interface Section {
  readonly name: string;
  /** Its first comment line (an LDraw file's title): a custom part's name. */
  title: string | null;
  isPart: boolean;
  readonly uses: Use[];
}

/** A file reference as the model's own sections are keyed: case and slashes aside. */
function keyOf(file: string): string {
  return file.replace(/\\/g, '/').trim().toLowerCase();
}

/** An LDraw part's number from its file name: `3001.dat` → `3001`, `parts/s/x.dat` → `s/x`. */
function partNumber(file: string): string {
  return file
    .replace(/\\/g, '/')
    .trim()
    .replace(/^parts\//i, '')
    .replace(/\.dat$/i, '')
    .toLowerCase();
}

/** Whether a name not held by the file is a model (a line of its own, unplaced) rather than a part. */
const isModelName = (file: string) => /\.(ldr|mpd|io)$/i.test(file.trim());

/** The text's lines one at a time (CR, LF and CRLF each end one): 20 MB of short lines are never an array. */
function* textLines(text: string): Generator<string> {
  const end = /\r\n?|\n/g;
  let start = 0;
  for (let m = end.exec(text); m !== null; m = end.exec(text)) {
    yield text.slice(start, m.index);
    start = end.lastIndex;
  }
  yield text.slice(start);
}

/** The text lines that begin as a part reference but are not one: how many, and the first few. */
interface Unread {
  count: number;
  readonly first: number[];
}
const UNREAD_SHOWN = 5;

/**
 * The model's sections: the first is the main model (a file without `0 FILE` is one section). `unread`
 * gets the text lines that begin as a part reference but are not one. A file of more type-1 lines than a
 * document may have lines is refused as soon as the reader counts past it.
 */
function sectionsOf(text: string, fileName: string, unread: Unread): Section[] {
  const sections: Section[] = [];
  let current: Section | null = null;
  /** The section made for text before any `0 FILE` (a plain `.ldr`'s whole model). */
  let implicit: Section | null = null;
  let i = -1;
  let uses = 0;
  for (const raw of textLines(text)) {
    i += 1;
    const file = FILE_LINE.exec(raw);
    if (file !== null) {
      current = { name: file[1] ?? '', title: null, isPart: false, uses: [] };
      sections.push(current);
      continue;
    }
    if (NOFILE_LINE.test(raw)) {
      current = null;
      continue;
    }
    if (current === null) {
      // Text before any `0 FILE` is the main model of a plain `.ldr`; after a `0 NOFILE`, nothing's.
      if (sections.length > 0) continue;
      current = { name: fileName, title: null, isPart: false, uses: [] };
      sections.push(current);
      implicit = current;
    }
    const section: Section = current;
    if (PART_TYPE.test(raw)) section.isPart = true;
    const title = /^\s*0\s+(?!FILE\b|NOFILE\b|!|Name:|Author:|BFC\b|STUDIO\b|PE_)(.+?)\s*$/i.exec(raw);
    if (title !== null && section.title === null && section.uses.length === 0) section.title = title[1] ?? null;
    const use = PART_LINE.exec(raw);
    if (use !== null) {
      // As any document's lines, counted as they are read: the reader stops as soon as it passes the cap.
      uses += 1;
      if (uses > DOCUMENT_LINE_LIMIT) throw tooManyTextLines(fileName, i + 1);
      section.uses.push({ colour: use[1] ?? '', file: use[2] ?? '', target: undefined });
    } else if (/^\s*1\s/.test(raw)) {
      unread.count += 1;
      if (unread.first.length < UNREAD_SHOWN) unread.first.push(i + 1);
    }
  }
  // An MPD's header comments before its first `0 FILE` are no model of their own.
  const first = implicit as Section | null;
  if (first !== null && first.uses.length === 0 && sections.length > 1) sections.shift();
  return sections;
}

/** What a type-1 line names: a submodel the file holds (expanded), or a part (a line of the document). */
type Target =
  | { readonly submodel: Section }
  | { readonly submodel: null; readonly part: string; readonly name: string | null; readonly note: string | null };

/** A line of the document: a part in a colour (`16`: the user's, still to be given), and how many. */
interface Counted {
  readonly part: string;
  readonly colour: string;
  count: number;
  readonly name: string | null;
  readonly note: string | null;
}

/**
 * Reads an LDraw model (the text of a `.ldr`, `.mpd` or `.dat`) as a parts list. `key`: the document's
 * key (the file's name and content hash); `format`: `ldraw-model`, or `studio-model` for a Studio file's.
 *
 * A model is counted before it is unfolded (issue 62): its type-1 lines as they are read, each submodel's
 * parts once, as a number — a model of more than a million parts is refused before any line is made —
 * then each submodel is walked once per colour it is used in, and a model of more lines than a document
 * may have is refused as the lines are made. A submodel used 100,000 times, or in 1,000 colours, costs no more.
 */
export function readLdrawModel(
  text: string,
  fileName: string,
  format: 'ldraw-model' | 'studio-model' = 'ldraw-model',
  content: Uint8Array = new TextEncoder().encode(text),
): ParsedDocument {
  const unread: Unread = { count: 0, first: [] };
  const sections = sectionsOf(text, fileName, unread);
  const main = sections[0];
  if (main === undefined || main.uses.length === 0)
    throw parseError(fileName, 'the model places no parts (it has no type-1 lines)');
  const held = new Map<string, Section>();
  for (const s of sections) if (!held.has(keyOf(s.name))) held.set(keyOf(s.name), s);
  const targetOfUse = (use: Use): Target => (use.target ??= resolveTarget(use, held));
  /** The submodel a use expands, found without making its part's line (most uses name parts). */
  const submodelOf = (use: Use): Section | null => {
    const section = use.target === undefined ? held.get(keyOf(use.file)) : (use.target.submodel ?? undefined);
    return section !== undefined && !section.isPart ? section : null;
  };

  const parts = partCounts(main, submodelOf, fileName);
  const lines = modelLines(main, { targetOf: targetOfUse, submodelOf }, parts, fileName);
  const total = parts.get(main) ?? 0;
  const submodels = [...parts.keys()].filter((s) => s !== main).length;

  const documentLines: ParsedLine[] = [];
  for (const c of lines.values()) {
    documentLines.push({
      position: documentLines.length + 1,
      given: {
        type: 'P',
        no: c.part,
        name: c.name,
        colourId: null,
        colourName: colourName(c.colour),
      },
      quantity: c.count,
      unitPriceE4: null,
      condition: null,
      remarks: c.note ?? ldrawPartRemark(c.part),
      sourceLine: 0,
    });
  }
  const hash = createHash('sha256').update(content).digest('hex').slice(0, 12);
  return {
    key: `${fileName}#${hash}`,
    fileName,
    format,
    header: { ...NO_HEADER, reference: fileName },
    lines: documentLines,
    reading: {
      // A model has no columns: what was counted, as the preview says it.
      read: [
        { title: total === 1 ? 'part' : 'parts', as: total.toLocaleString('en-US') },
        { title: submodels === 1 ? 'submodel expanded' : 'submodels expanded', as: submodels.toLocaleString('en-US') },
      ],
      notRead:
        unread.count === 0
          ? []
          : [
              `${unread.count} type-1 line${unread.count === 1 ? ' that names' : 's that name'} no part (line${unread.count === 1 ? '' : 's'} ${unread.first.join(', ')}${unread.count > UNREAD_SHOWN ? ', …' : ''})`,
            ],
      colourNumbering: { numbering: 'ldraw', how: 'format' },
      warnings: [],
    },
  };
}

/** What `use` names: a submodel the file holds, a part it holds, a submodel it does not hold, or a library part. */
function resolveTarget(use: Use, held: ReadonlyMap<string, Section>): Target {
  const section = held.get(keyOf(use.file));
  if (section !== undefined && !section.isPart) return { submodel: section };
  if (section !== undefined)
    return { submodel: null, part: partNumber(use.file), name: section.title, note: 'a part the model holds' };
  if (isModelName(use.file))
    return { submodel: null, part: use.file.trim(), name: null, note: 'a submodel the file names but does not hold' };
  return { submodel: null, part: partNumber(use.file), name: null, note: null };
}

/** The uses that count: a line in the edge colour places no part. */
const countsParts = (use: Use) => use.colour !== String(EDGE_COLOUR);

/**
 * How many parts each (sub)model the main one reaches holds, its submodels counted each time they are
 * used: numbers only, each section counted once, so a model of ten levels of ten uses is ten sums. A
 * cycle, nesting past the limit (by the deepest chain below each section, however it was reached first)
 * and a model past a million parts are refused here, before any line is made. The map's order: each
 * submodel before those that use it.
 */
function partCounts(main: Section, submodelOf: (use: Use) => Section | null, fileName: string): Map<Section, number> {
  const parts = new Map<Section, number>();
  /** The most sections on a chain from each section down, itself included. */
  const heights = new Map<Section, number>();
  const visiting: Section[] = [];
  const tooDeep = (at: Section) =>
    new BrickWorkError(
      'parse-error',
      `${fileName}: submodels are nested more than ${MODEL_DEPTH_LIMIT} deep (at ${at.name}); the file is damaged or not a model.`,
    );
  const count = (section: Section): number => {
    const known = parts.get(section);
    if (known !== undefined) {
      if (visiting.length + (heights.get(section) ?? 1) > MODEL_DEPTH_LIMIT) throw tooDeep(section);
      return known;
    }
    if (visiting.includes(section)) {
      const path = [...visiting.slice(visiting.indexOf(section)), section].map((s) => s.name).join(' → ');
      throw new BrickWorkError('parse-error', `${fileName}: the model includes itself (${path}); it can't be counted.`);
    }
    if (visiting.length >= MODEL_DEPTH_LIMIT) throw tooDeep(section);
    visiting.push(section);
    let n = 0;
    let below = 0;
    for (const use of section.uses) {
      if (!countsParts(use)) continue;
      const submodel = submodelOf(use);
      if (submodel === null) n += 1;
      else {
        n += count(submodel);
        below = Math.max(below, heights.get(submodel) ?? 1);
      }
      // A submodel holds no more than the model that uses it: past the cap here is past it there.
      if (n > MODEL_PART_LIMIT) throw tooManyParts(fileName);
    }
    visiting.pop();
    parts.set(section, n);
    heights.set(section, below + 1);
    return n;
  };
  count(main);
  return parts;
}

/**
 * The document's lines, per (part, colour), in the order the model first names each, with their counts.
 * Made from each (submodel, colour) once: first walked in the model's order, which makes each line (and
 * refuses a model past a document's lines as soon as it makes one too many); then counted, each submodel
 * in each colour it is used in times how often it is, those that use a submodel before it (`parts`' order
 * reversed) — never a line per use. Only the uses that add a part are gone through (not a line in the edge
 * colour, not a submodel of none), so each step of either pass is at least one of the model's parts.
 */
function modelLines(
  main: Section,
  ways: { readonly targetOf: (use: Use) => Target; readonly submodelOf: (use: Use) => Section | null },
  parts: ReadonlyMap<Section, number>,
  fileName: string,
): Map<string, Counted> {
  const { targetOf, submodelOf } = ways;
  const adding = new Map<Section, Use[]>();
  for (const section of parts.keys())
    adding.set(
      section,
      section.uses.filter((use) => {
        if (!countsParts(use)) return false;
        const submodel = submodelOf(use);
        return submodel === null || (parts.get(submodel) ?? 0) > 0;
      }),
    );
  const usesOf = (section: Section) => adding.get(section) ?? [];
  /** The colour a line takes where it is used in `colour` (its own, or the user's 16 filled in). */
  const colourIn = (use: Use, colour: string) => (use.colour === String(MAIN_COLOUR) ? colour : use.colour);

  const lines = new Map<string, Counted>();
  const walked = new Map<Section, Set<string>>();
  const walk = (section: Section, colour: string): void => {
    const colours = walked.get(section) ?? new Set<string>();
    walked.set(section, colours);
    if (colours.has(colour)) return;
    colours.add(colour);
    for (const use of usesOf(section)) {
      const target = targetOf(use);
      const inColour = colourIn(use, colour);
      if (target.submodel !== null) {
        walk(target.submodel, inColour);
        continue;
      }
      const key = `${target.part}\t${inColour}`;
      if (lines.has(key)) continue;
      if (lines.size >= DOCUMENT_LINE_LIMIT) throw tooManyLines(fileName);
      lines.set(key, { part: target.part, colour: inColour, count: 0, name: target.name, note: target.note });
    }
  };
  walk(main, String(MAIN_COLOUR));

  /** How often each submodel is used in each colour, all uses above it counted. */
  const times = new Map<Section, Map<string, number>>([[main, new Map([[String(MAIN_COLOUR), 1]])]]);
  for (const section of [...parts.keys()].reverse()) {
    for (const [colour, n] of times.get(section) ?? []) {
      for (const use of usesOf(section)) {
        const target = targetOf(use);
        const inColour = colourIn(use, colour);
        if (target.submodel === null) {
          (lines.get(`${target.part}\t${inColour}`) as Counted).count += n;
          continue;
        }
        const used = times.get(target.submodel) ?? new Map<string, number>();
        times.set(target.submodel, used);
        used.set(inColour, (used.get(inColour) ?? 0) + n);
      }
    }
  }
  return lines;
}

/** An LDraw colour as the line's colour: its code in LDraw's numbering; the user's 16 at the top is none. */
function colourName(code: string): string | null {
  if (code === String(MAIN_COLOUR)) return null;
  if (/^\d{1,9}$/.test(code)) return otherNumberingColour('LDraw', String(Number(code)));
  // A direct colour (`0x2RRGGBB`): no table knows it; the line shows it as given.
  return `LDraw direct colour ${code}`;
}

function tooManyParts(fileName: string): BrickWorkError {
  return new BrickWorkError(
    'too-big',
    `${fileName} holds more than ${MODEL_PART_LIMIT.toLocaleString('en-US')} parts (submodels counted each time they are used); brick-work reads models up to that size.`,
  );
}

function tooManyLines(fileName: string): BrickWorkError {
  const limit = DOCUMENT_LINE_LIMIT.toLocaleString('en-US');
  return new BrickWorkError(
    'too-big',
    `${fileName} would make more than ${limit} lines (a line for each part in each colour, submodels expanded); brick-work imports at most ${limit} lines per document.`,
  );
}

function tooManyTextLines(fileName: string, line: number): BrickWorkError {
  const limit = DOCUMENT_LINE_LIMIT.toLocaleString('en-US');
  return new BrickWorkError(
    'too-big',
    `${fileName} has more than ${limit} lines that place a part or a submodel (the reader stopped at text line ${line.toLocaleString('en-US')}); brick-work imports at most ${limit} lines per document.`,
  );
}
