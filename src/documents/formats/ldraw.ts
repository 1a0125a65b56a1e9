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
import { BrickWorkError } from '../../errors.ts';
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

interface Section {
  readonly name: string;
  /** Its first comment line (an LDraw file's title): a custom part's name. */
  title: string | null;
  isPart: boolean;
  readonly uses: { readonly colour: string; readonly file: string; readonly line: number }[];
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

/**
 * The model's sections: the first is the main model (a file without `0 FILE` is one section). `unread`
 * gets the text lines that begin as a part reference but are not one.
 */
function sectionsOf(text: string, fileName: string, unread: number[]): Section[] {
  const sections: Section[] = [];
  let current: Section | null = null;
  /** The section made for text before any `0 FILE` (a plain `.ldr`'s whole model). */
  let implicit: Section | null = null;
  const lines = text.split(/\r\n?|\n/);
  lines.forEach((raw, i) => {
    const file = FILE_LINE.exec(raw);
    if (file !== null) {
      current = { name: file[1] ?? '', title: null, isPart: false, uses: [] };
      sections.push(current);
      return;
    }
    if (NOFILE_LINE.test(raw)) {
      current = null;
      return;
    }
    if (current === null) {
      // Text before any `0 FILE` is the main model of a plain `.ldr`; after a `0 NOFILE`, nothing's.
      if (sections.length > 0) return;
      current = { name: fileName, title: null, isPart: false, uses: [] };
      sections.push(current);
      implicit = current;
    }
    const section: Section = current;
    if (PART_TYPE.test(raw)) section.isPart = true;
    const title = /^\s*0\s+(?!FILE\b|NOFILE\b|!|Name:|Author:|BFC\b|STUDIO\b|PE_)(.+?)\s*$/i.exec(raw);
    if (title !== null && section.title === null && section.uses.length === 0) section.title = title[1] ?? null;
    const use = PART_LINE.exec(raw);
    if (use !== null) section.uses.push({ colour: use[1] ?? '', file: use[2] ?? '', line: i + 1 });
    else if (/^\s*1\s/.test(raw)) unread.push(i + 1);
  });
  // An MPD's header comments before its first `0 FILE` are no model of their own.
  const first = implicit as Section | null;
  if (first !== null && first.uses.length === 0 && sections.length > 1) sections.shift();
  return sections;
}

/** What one (sub)model holds, per (part, colour); colour `16` is the user's, still to be given. */
type Counts = Map<string, { part: string; colour: string; count: number; name: string | null; note: string | null }>;

/**
 * Reads an LDraw model (the text of a `.ldr`, `.mpd` or `.dat`) as a parts list. `key`: the document's
 * key (the file's name and content hash); `format`: `ldraw-model`, or `studio-model` for a Studio file's.
 */
export function readLdrawModel(
  text: string,
  fileName: string,
  format: 'ldraw-model' | 'studio-model' = 'ldraw-model',
  content: Uint8Array = new TextEncoder().encode(text),
): ParsedDocument {
  const unread: number[] = [];
  const sections = sectionsOf(text, fileName, unread);
  const main = sections[0];
  if (main === undefined || main.uses.length === 0)
    throw parseError(fileName, 'the model places no parts (it has no type-1 lines)');
  const held = new Map<string, Section>();
  for (const s of sections) if (!held.has(keyOf(s.name))) held.set(keyOf(s.name), s);

  const done = new Map<Section, Counts>();
  const visiting: Section[] = [];
  let submodels = 0;
  const countsOf = (section: Section): Counts => {
    const known = done.get(section);
    if (known !== undefined) return known;
    if (visiting.includes(section)) {
      const path = [...visiting.slice(visiting.indexOf(section)), section].map((s) => s.name).join(' → ');
      throw new BrickWorkError('parse-error', `${fileName}: the model includes itself (${path}); it can't be counted.`);
    }
    if (visiting.length >= MODEL_DEPTH_LIMIT)
      throw new BrickWorkError(
        'parse-error',
        `${fileName}: submodels are nested more than ${MODEL_DEPTH_LIMIT} deep (at ${section.name}); the file is damaged or not a model.`,
      );
    visiting.push(section);
    const counts: Counts = new Map();
    const add = (part: string, colour: string, count: number, name: string | null, note: string | null) => {
      const key = `${part}\t${colour}`;
      const had = counts.get(key);
      const total = (had?.count ?? 0) + count;
      if (total > MODEL_PART_LIMIT) throw tooManyParts(fileName);
      if (had === undefined) counts.set(key, { part, colour, count, name, note });
      else had.count = total;
    };
    for (const use of section.uses) {
      if (use.colour === String(EDGE_COLOUR)) continue;
      const sub = held.get(keyOf(use.file));
      if (sub !== undefined && !sub.isPart) {
        for (const c of countsOf(sub).values()) {
          // The submodel's own colour 16 is the colour of the line that uses it.
          add(c.part, c.colour === String(MAIN_COLOUR) ? use.colour : c.colour, c.count, c.name, c.note);
        }
        continue;
      }
      if (sub !== undefined) {
        add(partNumber(use.file), use.colour, 1, sub.title, 'a part the model holds');
      } else if (isModelName(use.file)) {
        add(use.file.trim(), use.colour, 1, null, 'a submodel the file names but does not hold');
      } else {
        add(partNumber(use.file), use.colour, 1, null, null);
      }
    }
    visiting.pop();
    done.set(section, counts);
    return counts;
  };
  const counts = countsOf(main);
  for (const s of sections) if (s !== main && !s.isPart && done.has(s)) submodels += 1;

  let total = 0;
  const lines: ParsedLine[] = [];
  for (const c of counts.values()) {
    total += c.count;
    if (total > MODEL_PART_LIMIT) throw tooManyParts(fileName);
    lines.push({
      position: lines.length + 1,
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
    lines,
    reading: {
      // A model has no columns: what was counted, as the preview says it.
      read: [
        { title: total === 1 ? 'part' : 'parts', as: total.toLocaleString('en-US') },
        { title: submodels === 1 ? 'submodel expanded' : 'submodels expanded', as: submodels.toLocaleString('en-US') },
      ],
      notRead:
        unread.length === 0
          ? []
          : [
              `${unread.length} type-1 line${unread.length === 1 ? ' that names' : 's that name'} no part (line${unread.length === 1 ? '' : 's'} ${unread.slice(0, 5).join(', ')}${unread.length > 5 ? ', …' : ''})`,
            ],
      colourNumbering: { numbering: 'ldraw', how: 'format' },
      warnings: [],
    },
  };
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
    'parse-error',
    `${fileName} holds more than ${MODEL_PART_LIMIT.toLocaleString('en-US')} parts (submodels counted each time they are used); brick-work reads models up to that size.`,
  );
}
