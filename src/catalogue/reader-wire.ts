import type { ItemType } from '../vocabulary/item-types.ts';
import { foldName } from '../placement/fold.ts';
import type { StreamMessage } from './read-stream.ts';
import type { CatalogueRecord } from './records.ts';

/**
 * How the reader thread's messages cross to the job's thread. A message's items go as columns — their
 * text in one string, their categories in one typed array — not as objects: cloning 60,000 small objects
 * field by field cost the load more time, on both threads, than reading the file (SPEC §12's catalogue
 * row). Every other message, and the few rows that are not items, cross as they are.
 */

type Item = Extract<CatalogueRecord, { kind: 'item' }>;

/** A message's items as columns: `text` holds the type, number, name and folded name of each, in order. */
export interface PackedItems {
  readonly count: number;
  readonly text: string;
  /** NaN: no category. */
  readonly categories: Float64Array;
}

export type WireMessage =
  | Exclude<StreamMessage, { kind: 'rows' }>
  | {
      readonly kind: 'rows';
      readonly source: string;
      /** The rows that are not items, then the items (the order `streamFile` sends them in). */
      readonly others: readonly CatalogueRecord[];
      readonly items: PackedItems | null;
      readonly distinctKeys: boolean;
    };

/**
 * Between fields. A catalogue file never holds a NUL (`read-file.ts` refuses one); were one there anyway,
 * the fields would not count out and `fromWire` says so, so nothing is ever read wrong.
 */
const SEP = '\u0000';
const FIELDS = 4;

export function toWire(m: StreamMessage): WireMessage {
  if (m.kind !== 'rows') return m;
  const first = m.records.findIndex((r) => r.kind === 'item');
  const items = first < 0 ? [] : (m.records.slice(first) as Item[]);
  // Items after all other rows, as `streamFile` sends them: else as objects.
  if (items.length === 0 || !items.every((r) => r.kind === 'item'))
    return { kind: 'rows', source: m.source, others: m.records, items: null, distinctKeys: m.distinctKeys };
  const fields: string[] = new Array<string>(items.length * FIELDS);
  const categories = new Float64Array(items.length);
  items.forEach((r, i) => {
    fields[i * FIELDS] = r.type;
    fields[i * FIELDS + 1] = r.no;
    fields[i * FIELDS + 2] = r.name;
    fields[i * FIELDS + 3] = r.nameKey ?? foldName(r.name);
    categories[i] = r.categoryId ?? Number.NaN;
  });
  return {
    kind: 'rows',
    source: m.source,
    others: m.records.slice(0, first),
    items: { count: items.length, text: fields.join(SEP), categories },
    distinctKeys: m.distinctKeys,
  };
}

/** The message `toWire` was given; null when its items' fields don't count out (text that held a NUL). */
export function fromWire(m: WireMessage): StreamMessage | null {
  if (m.kind !== 'rows') return m;
  if (m.items === null) return { kind: 'rows', source: m.source, records: m.others, distinctKeys: m.distinctKeys };
  const { count, text, categories } = m.items;
  const records: CatalogueRecord[] = m.others.slice();
  const fields = text.split(SEP);
  if (fields.length !== count * FIELDS || categories.length !== count) return null;
  for (let i = 0, f = 0; i < count; i++, f += FIELDS) {
    const category = categories[i] as number;
    records.push({
      kind: 'item',
      type: fields[f] as ItemType,
      no: fields[f + 1] as string,
      name: fields[f + 2] as string,
      categoryId: Number.isNaN(category) ? null : category,
      nameKey: fields[f + 3] as string,
    });
  }
  return { kind: 'rows', source: m.source, records, distinctKeys: m.distinctKeys };
}
