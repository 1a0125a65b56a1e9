import { BrickWorkError, quote } from '../../vocabulary/errors.ts';
import { parseError } from '../../text/position.ts';
import { childText, type XmlElement } from '../../text/xml.ts';
import type { DocumentReading, KeptColumn } from '../model.ts';
import { columnKey } from './csv-columns.ts';

/** The children of `el` named `name`. */
export function childrenNamed(el: XmlElement, name: string): XmlElement[] {
  return el.children.filter((c) => c.name === name);
}

/** A child's text, or null when missing or empty. */
export function field(el: XmlElement, name: string): string | null {
  const t = childText(el, name);
  return t === null || t === '' ? null : t;
}

/** BrickLink escapes `<` and `>` in remarks twice: undo the second escaping. */
export function unescapeTwice(text: string | null): string | null {
  return text === null ? null : text.replace(/&lt;/g, '<').replace(/&gt;/g, '>');
}

/**
 * Which fields of a document's items the reader read, and which it left (SPEC §8: nothing skipped is
 * invisible): `read` maps each element name it reads to what it is read as. In the order first met.
 */
export function itemFields(
  items: readonly XmlElement[],
  read: Readonly<Record<string, string>>,
): { read: { title: string; as: string }[]; notRead: string[] } {
  const seen = new Set<string>();
  for (const item of items) for (const child of item.children) seen.add(child.name);
  const names = [...seen];
  return {
    read: names.filter((n) => Object.hasOwn(read, n)).map((n) => ({ title: n, as: read[n] as string })),
    notRead: names.filter((n) => !Object.hasOwn(read, n)),
  };
}

/**
 * An item's fields hold text only: one holding markup (`<ITEMID><a>3001</a></ITEMID>`) is refused, saying
 * where, instead of being read as empty and the line left without a number (issue 45).
 */
export function refuseMarkupInFields(item: XmlElement, fileName: string, line: number): void {
  for (const child of item.children) {
    const inner = child.children[0];
    if (inner !== undefined)
      throw parseError(
        fileName,
        `line ${line}: <${child.name}> holds markup (<${inner.name}>) where its value belongs; a field holds text only`,
      );
  }
}

/**
 * A field an item gives twice, saying two things (`<ITEMID>3001</ITEMID><ITEMID>3003</ITEMID>`): which
 * is meant can't be told, and reading the first would drop the other unseen (issue 62) — refused, saying
 * where. Only the fields in `read`, the ones the reader reads: one it leaves is listed as not read.
 */
export function refuseRepeatedFields(
  item: XmlElement,
  read: ReadonlySet<string>,
  fileName: string,
  line: number,
): void {
  const first = new Map<string, string>();
  for (const child of item.children) {
    if (!read.has(child.name)) continue;
    const text = child.text.trim();
    const before = first.get(child.name);
    if (before === undefined) first.set(child.name, text);
    else if (before !== text)
      throw parseError(
        fileName,
        `line ${line}: <${child.name}> is given twice in one item ("${quote(before)}" and "${quote(text)}"); ` +
          "an item gives each field once, so which is meant can't be told",
      );
  }
}

/**
 * The item field a kept column names (`KeptColumn`): the format's remarks field for `remarks`, else the
 * field whose name matches the title regardless of case and spaces; refused in words naming the fields
 * the items have when none does.
 */
export function keptField(
  items: readonly XmlElement[],
  keep: KeptColumn,
  remarksField: string,
  fileName: string,
): string {
  if (columnKey(keep.column) === 'remarks') return remarksField;
  const names = new Set<string>();
  for (const item of items) for (const child of item.children) names.add(child.name);
  const wanted = columnKey(keep.column);
  const found = [...names].find((n) => columnKey(n) === wanted);
  if (found !== undefined) return found;
  throw new BrickWorkError(
    'invalid-argument',
    `${fileName} has no field "${quote(keep.column)}" to read the ${keep.as} from; its items have ${[...names].join(', ')}.`,
  );
}

/**
 * A reading's columns with the kept one among those read, as what it is kept as: beside what the reader
 * reads it as already ("remarks; location"), or out of those not read.
 */
export function withKept(
  columns: Pick<DocumentReading, 'read' | 'notRead'>,
  title: string,
  as: string,
): Pick<DocumentReading, 'read' | 'notRead'> {
  const read = columns.read.some((c) => c.title === title)
    ? columns.read.map((c) => (c.title === title ? { title, as: `${c.as}; ${as}` } : c))
    : [...columns.read, ...(columns.notRead.includes(title) ? [{ title, as }] : [])];
  return { read, notRead: columns.notRead.filter((t) => t !== title) };
}
