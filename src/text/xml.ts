import { BrickWorkError, quote } from '../vocabulary/errors.ts';
import { lineColumn, parseErrorAt } from './position.ts';

/**
 * A small, safe XML reader for the files brick-work reads (SPEC §8, §11).
 *
 * Safe: it never expands entities beyond XML's five and character references, never reads an external
 * DTD or entity, and refuses a document that declares entities (an entity bomb, an external entity).
 * Tolerant of BrickLink's own defects: a bare `&` is a literal `&`, an unknown `&name;` stays as
 * written, no XML declaration is needed. Strict about structure: a tag that does not close, or closes
 * the wrong element, is a parse error with its line and column.
 */

export interface XmlHandler {
  open?(name: string, attributes: Readonly<Record<string, string>>, offset: number): void;
  close?(name: string, offset: number): void;
  text?(text: string): void;
}

/** XML's five entities, as written after the `&`, and the characters they stand for. */
const PREDEFINED: readonly { readonly written: string; readonly code: number }[] = [
  { written: 'amp;', code: '&'.charCodeAt(0) },
  { written: 'lt;', code: '<'.charCodeAt(0) },
  { written: 'gt;', code: '>'.charCodeAt(0) },
  { written: 'quot;', code: '"'.charCodeAt(0) },
  { written: 'apos;', code: "'".charCodeAt(0) },
];
const NAME = /[A-Za-z_:][-A-Za-z0-9_.:]*/y;

/** The XML name starting exactly at `at`, or null. */
function nameAt(src: string, at: number): string | null {
  NAME.lastIndex = at;
  return NAME.exec(src)?.[0] ?? null;
}

/** A control character (C0 other than tab, LF and CR; DEL), which no document field may hold (SPEC §11). */
function isControlCharacter(cp: number): boolean {
  return (cp < 0x20 && cp !== 0x09 && cp !== 0x0a && cp !== 0x0d) || cp === 0x7f;
}

/**
 * Replaces XML's five entities and character references; leaves anything else (a bare `&`, `&nbsp;`) as
 * written. `onControl`, when given, is called with the index in `text` of a reference to a control
 * character (`&#1;`, `&#x0;`), before it would be decoded; without it such references decode as before.
 * The text is built in parts, the characters references stand for gathered thousands to a string: a
 * field of millions of references costs about its own text, not an object each (issue 62: an 18 MB
 * field of them took 531 MB).
 */
export function decodeEntities(text: string, onControl?: (index: number, ref: string) => void): string {
  let amp = text.indexOf('&');
  if (amp === -1) return text;
  const parts: string[] = [];
  /** Code units in `UNITS` not yet in `parts`. */
  let units = 0;
  /** Where the text not yet in `parts` (or `UNITS`) starts. */
  let copied = 0;
  const flush = () => {
    if (units === 0) return;
    parts.push(UTF16.decode(UNITS.subarray(0, units)));
    units = 0;
  };
  // Nothing is made for a reference (no match, no slice, no array): a bomb of them leaves no garbage.
  for (; amp !== -1; amp = text.indexOf('&', amp + 1)) {
    let cp: number;
    let end: number;
    if (text.charCodeAt(amp + 1) === 0x23 /* # */) {
      const hex = text.charCodeAt(amp + 2) === 0x78; /* x */
      const from = hex ? amp + 3 : amp + 2;
      cp = 0;
      end = from;
      for (let d = digit(text.charCodeAt(end), hex); d >= 0 && end - from < (hex ? 6 : 7);) {
        cp = cp * (hex ? 16 : 10) + d;
        d = digit(text.charCodeAt(++end), hex);
      }
      if (end === from || text.charCodeAt(end) !== 0x3b /* ; */) continue;
      if (onControl !== undefined && isControlCharacter(cp)) {
        flush(); // `UNITS` is free while it runs
        onControl(amp, text.slice(amp, end + 1));
      }
      // Not a character: left as written.
      if (!(cp > 0 && cp <= 0x10ffff && !(cp >= 0xd800 && cp <= 0xdfff))) continue;
    } else {
      let entity: (typeof PREDEFINED)[number] | undefined;
      for (const e of PREDEFINED) if (text.startsWith(e.written, amp + 1)) entity = e;
      if (entity === undefined) continue;
      cp = entity.code;
      end = amp + entity.written.length;
    }
    if (amp > copied) {
      flush();
      parts.push(text.slice(copied, amp));
    }
    if (units >= UNITS.length - 1) flush();
    if (cp > 0xffff) {
      UNITS[units++] = 0xd800 + ((cp - 0x10000) >> 10);
      UNITS[units++] = 0xdc00 + ((cp - 0x10000) & 0x3ff);
    } else UNITS[units++] = cp;
    copied = end + 1;
    amp = end;
  }
  flush();
  if (copied < text.length) parts.push(text.slice(copied));
  return parts.length === 1 ? (parts[0] as string) : parts.join('');
}

/**
 * The characters references stand for, gathered before they are made text: `decodeEntities` holds none
 * while it calls out, so a call within a call can't overwrite its own.
 */
const UNITS = new Uint16Array(16 * 1024);
// A U+FEFF a reference stands for is a character like any other, never a BOM to drop.
const UTF16 = new TextDecoder('utf-16le', { ignoreBOM: true });

/** The value of a digit (hex or decimal), or -1. */
function digit(c: number, hex: boolean): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (hex && c >= 0x41 && c <= 0x46) return c - 0x41 + 10;
  if (hex && c >= 0x61 && c <= 0x66) return c - 0x61 + 10;
  return -1;
}

export interface XmlOptions {
  /** Refuse character references to control characters, with their line and column (documents do). */
  readonly refuseControlReferences?: boolean;
  /**
   * Refuse elements nested deeper than this, at the first one (SPEC §11): memory stays flat whatever the
   * file holds. No order document or catalogue download nests more than a few levels.
   */
  readonly maxDepth?: number;
  /**
   * Say a broken structure (a tag never closed, the wrong closing tag, a file cut short) in a worker's
   * words first — "the file is cut short or damaged near line L" — with the parser's detail after it.
   */
  readonly sayDamaged?: boolean;
}

/** The deepest nesting the readers take by default: four levels in every real file, and room to spare. */
export const XML_DEPTH_LIMIT = 10;

export function parseXml(source: string, fileName: string, handler: XmlHandler, options: XmlOptions = {}): void {
  const src = source.charCodeAt(0) === 0xfeff ? source.slice(1) : source;
  const n = src.length;
  const stack: string[] = [];
  let sawRoot = false;
  let i = 0;
  const maxDepth = options.maxDepth ?? XML_DEPTH_LIMIT;
  /** A refusal of what the file holds (entities, control characters, depth), said as the parser found it. */
  const refuse = (offset: number, problem: string): never => {
    const { line, column } = lineColumn(src, offset);
    throw parseErrorAt(fileName, line, column, problem);
  };
  /** A broken structure: the file is damaged or cut short. */
  const fail = (offset: number, problem: string): never => {
    if (options.sayDamaged !== true) return refuse(offset, problem);
    const { line, column } = lineColumn(src, offset);
    throw new BrickWorkError(
      'parse-error',
      `${fileName}: the file is cut short or damaged near line ${line} (line ${line}, column ${column}: ${problem})`,
    );
  };
  // A reference to a control character would put it in a field as surely as the raw byte would.
  const onControl = options.refuseControlReferences
    ? (at: number) => (index: number, ref: string) =>
        refuse(
          at + index,
          `the character reference ${ref} stands for a control character, which a document may not hold`,
        )
    : () => undefined;

  while (i < n) {
    const lt = src.indexOf('<', i);
    const textEnd = lt === -1 ? n : lt;
    if (textEnd > i) {
      const raw = src.slice(i, textEnd);
      if (stack.length > 0) handler.text?.(decodeEntities(raw, onControl(i)));
      else if (raw.trim() !== '')
        fail(i, sawRoot ? 'there is text after the end of the document' : 'there is text before the first element');
    }
    if (lt === -1) break;
    i = lt;

    if (src.startsWith('<!--', i)) {
      const end = src.indexOf('-->', i + 4);
      if (end === -1) fail(i, 'a comment is never closed');
      i = end + 3;
    } else if (src.startsWith('<![CDATA[', i)) {
      const end = src.indexOf(']]>', i + 9);
      if (end === -1) fail(i, 'a CDATA section is never closed');
      if (stack.length === 0) fail(i, 'there is a CDATA section outside the document element');
      handler.text?.(src.slice(i + 9, end));
      i = end + 3;
    } else if (src.startsWith('<?', i)) {
      const end = src.indexOf('?>', i + 2);
      if (end === -1) fail(i, 'a processing instruction is never closed');
      i = end + 2;
    } else if (src.startsWith('<!DOCTYPE', i)) {
      if (sawRoot || stack.length > 0) fail(i, 'a DOCTYPE may only come before the document element');
      i = skipDoctype(src, i, fail, refuse);
    } else if (src.charCodeAt(i + 1) === 47 /* / */) {
      const name = nameAt(src, i + 2) ?? fail(i, 'a closing tag has no element name');
      const gt = src.indexOf('>', i + 2 + name.length);
      if (gt === -1 || src.slice(i + 2 + name.length, gt).trim() !== '')
        fail(i, `the closing tag </${quote(name)}> is not closed with ">"`);
      const open = stack.pop();
      if (open === undefined) fail(i, `</${quote(name)}> closes an element that was never opened`);
      if (open !== name) fail(i, `expected </${quote(open ?? '')}> here, found </${quote(name)}>`);
      handler.close?.(name, i);
      i = gt + 1;
    } else {
      const name = nameAt(src, i + 1) ?? fail(i, 'a "<" that does not start a tag (write it as &lt;)');
      if (sawRoot && stack.length === 0)
        fail(i, `a second document element <${quote(name)}> after the first one ended`);
      if (stack.length >= maxDepth) {
        refuse(
          i,
          `<${quote(name)}> is nested ${stack.length + 1} elements deep (in <${quote(stack.slice(-3).join('><'))}>); ` +
            `brick-work reads at most ${maxDepth} levels, and no order document nests more than a few`,
        );
      }
      const { attributes, end, selfClosing } = readAttributes(src, i + 1 + name.length, name, fail, onControl);
      sawRoot = true;
      handler.open?.(name, attributes, i);
      if (selfClosing) handler.close?.(name, i);
      else stack.push(name);
      i = end;
    }
  }
  if (stack.length > 0) fail(n, `the file ends inside <${quote(stack.at(-1) ?? '')}>: it is cut short`);
  if (!sawRoot) fail(0, 'there is no XML element in the file');
}

function readAttributes(
  src: string,
  from: number,
  element: string,
  fail: (offset: number, problem: string) => never,
  onControl: (at: number) => ((index: number, ref: string) => void) | undefined,
): { attributes: Record<string, string>; end: number; selfClosing: boolean } {
  const attributes: Record<string, string> = {};
  let i = from;
  for (;;) {
    while (i < src.length && /\s/.test(src.charAt(i))) i += 1;
    if (i >= src.length) fail(from, `the tag <${quote(element)}> is never closed`);
    if (src.startsWith('/>', i)) return { attributes, end: i + 2, selfClosing: true };
    if (src.charAt(i) === '>') return { attributes, end: i + 1, selfClosing: false };
    const attr = nameAt(src, i) ?? fail(i, `the tag <${quote(element)}> has something that is not an attribute`);
    i += attr.length;
    while (/\s/.test(src.charAt(i))) i += 1;
    if (src.charAt(i) !== '=') fail(i, `the attribute ${quote(attr)} of <${quote(element)}> has no value`);
    i += 1;
    while (/\s/.test(src.charAt(i))) i += 1;
    const mark = src.charAt(i);
    if (mark !== '"' && mark !== "'") fail(i, `the value of ${quote(attr)} in <${quote(element)}> is not quoted`);
    const close = src.indexOf(mark, i + 1);
    if (close === -1) fail(i, `the value of ${quote(attr)} in <${quote(element)}> is never closed`);
    attributes[attr] = decodeEntities(src.slice(i + 1, close), onControl(i + 1));
    i = close + 1;
  }
}

/** Skips `<!DOCTYPE …>`, refusing one that declares entities: brick-work never expands them. */
function skipDoctype(
  src: string,
  from: number,
  fail: (offset: number, problem: string) => never,
  refuse: (offset: number, problem: string) => never,
): number {
  let i = from + '<!DOCTYPE'.length;
  let quote = '';
  for (; i < src.length; i++) {
    const ch = src.charAt(i);
    if (quote) {
      if (ch === quote) quote = '';
    } else if (ch === '"' || ch === "'") {
      quote = ch;
    } else if (ch === '[') {
      const close = src.indexOf(']', i);
      if (close === -1) fail(i, 'the DOCTYPE is never closed');
      const subset = src.slice(i, close);
      const entity = subset.search(/<!ENTITY/);
      if (entity !== -1) {
        refuse(
          i + entity,
          'the file declares XML entities (<!ENTITY …>); brick-work never expands entities, so it does not read such files',
        );
      }
      i = close;
    } else if (ch === '>') {
      return i + 1;
    }
  }
  return fail(from, 'the DOCTYPE is never closed');
}

/** An element with its attributes, children and text, for documents small enough to hold whole. */
export interface XmlElement {
  readonly name: string;
  readonly attributes: Readonly<Record<string, string>>;
  readonly children: XmlElement[];
  text: string;
  /** Where it starts in the source, for messages. */
  readonly offset: number;
}

export interface XmlTreeOptions extends XmlOptions {
  /**
   * At most `max` children named one of `names` in any one element (a document's lines): they are
   * counted in a first read that keeps nothing, which stops at the first one past it and throws what
   * `refuse` makes of the count and the offset of that child, so such a file is never held as a tree.
   */
  readonly childLimit?: {
    readonly names: readonly string[];
    readonly max: number;
    readonly refuse: (count: number, offset: number) => Error;
    /** Told of each such child as it is read (its count and offset): a long read's progress; it may throw to stop. */
    readonly onChild?: (count: number, offset: number) => void;
  };
}

export function parseXmlTree(source: string, fileName: string, options: XmlTreeOptions = {}): XmlElement {
  const limit = options.childLimit;
  // Counted before the tree is built: a file past the limit is refused holding only its text (issue 62:
  // 200,001 items took 334 MB as a tree before the 200,001st was met).
  if (limit !== undefined) countChildren(source, fileName, options, limit);
  const stack: XmlElement[] = [];
  // Beside `stack`: how many limited children each open element has so far.
  const counts: number[] = [];
  let root: XmlElement | undefined;
  parseXml(
    source,
    fileName,
    {
      open(name, attributes, offset) {
        if (limit?.onChild !== undefined && counts.length > 0 && limit.names.includes(name)) {
          const count = (counts[counts.length - 1] ?? 0) + 1;
          counts[counts.length - 1] = count;
          limit.onChild(count, offset);
        }
        const el: XmlElement = { name, attributes, children: [], text: '', offset };
        stack.at(-1)?.children.push(el);
        stack.push(el);
        counts.push(0);
        root ??= el;
      },
      close() {
        stack.pop();
        counts.pop();
      },
      text(text) {
        const el = stack.at(-1);
        if (el) el.text += text;
      },
    },
    options,
  );
  if (root === undefined) throw new Error('unreachable: parseXml found no element');
  return root;
}

/**
 * Reads the structure only (no text is decoded, no element kept) to refuse a file with more than
 * `limit.max` of the limited children in one element, at the first one past it.
 */
function countChildren(
  source: string,
  fileName: string,
  options: XmlOptions,
  limit: NonNullable<XmlTreeOptions['childLimit']>,
): void {
  const counts: number[] = [];
  parseXml(
    source,
    fileName,
    {
      open(name, _attributes, offset) {
        if (counts.length > 0 && limit.names.includes(name)) {
          const count = (counts[counts.length - 1] ?? 0) + 1;
          if (count > limit.max) throw limit.refuse(count, offset);
          counts[counts.length - 1] = count;
        }
        counts.push(0);
      },
      close() {
        counts.pop();
      },
    },
    options,
  );
}

/** The trimmed text of the first child element named `name`, or null. */
export function childText(el: XmlElement, name: string): string | null {
  const child = el.children.find((c) => c.name === name);
  return child === undefined ? null : child.text.trim();
}

/**
 * Streams the records of a big file: for each element named `record`, the trimmed text of each of its
 * child elements, by name. For catalogue downloads (CATALOG/ITEM) that are too big to hold as a tree.
 * A field in `once` given twice in a record, saying two things, is refused where the second ends: keeping
 * either would drop the other unseen (issue 62).
 */
export function forEachRecord(
  source: string,
  fileName: string,
  record: string,
  onRecord: (fields: Record<string, string>, offset: number) => void,
  onRoot?: (name: string) => void,
  once: ReadonlySet<string> = new Set(),
): void {
  let depth = 0;
  let recordDepth = -1;
  let recordOffset = 0;
  let fields: Record<string, string> = {};
  let field: string | null = null;
  let value = '';
  parseXml(source, fileName, {
    open(name, _attributes, offset) {
      depth += 1;
      if (depth === 1) onRoot?.(name);
      if (recordDepth === -1 && name === record) {
        recordDepth = depth;
        recordOffset = offset;
        fields = {};
      } else if (recordDepth !== -1 && depth === recordDepth + 1) {
        field = name;
        value = '';
      }
    },
    close(name, offset) {
      if (recordDepth !== -1 && depth === recordDepth + 1 && field !== null) {
        const text = value.trim();
        const before = once.has(field) ? fields[field] : undefined;
        if (before !== undefined && before !== text) {
          const { line, column } = lineColumn(source, offset);
          throw parseErrorAt(
            fileName,
            line,
            column,
            `<${field}> is given twice in one <${record}> ("${quote(before)}" and "${quote(text)}"), so which is meant can't be told`,
          );
        }
        fields[field] = text;
        field = null;
      } else if (depth === recordDepth && name === record) {
        onRecord(fields, recordOffset);
        recordDepth = -1;
      }
      depth -= 1;
    },
    text(text) {
      if (field !== null) value += text;
    },
  });
}
