import type { StoreDb } from '../store/db.ts';
import type { ItemType } from '../vocabulary/item-types.ts';
import { crossReferences } from '../store/lookup.ts';
import { relatedReader } from '../store/related.ts';

/** How a part is related to the number a line gives (SPEC §7 `related`), in the order they are offered. */
export const RELATIONS = ['element', 'numbering', 'alternate', 'mould', 'plain', 'print'] as const;
export type Relation = (typeof RELATIONS)[number];

export interface RelatedPart {
  readonly type: ItemType;
  readonly no: string;
  readonly name: string;
  readonly related: Relation;
}

/**
 * The catalogue's parts the translation and relationship tables (SPEC §5) tie to a number: the same part
 * in another numbering, its alternates, its other moulds, the plain part of a print or pattern, then its
 * prints and patterns. Relationships are in Rebrickable's numbering: a number is looked up as it is and as
 * the Rebrickable numbers it cross-references to, and each part found is offered as the catalogue has it
 * (itself, or its BrickLink numbers). Never places a line: these lead the suggestions.
 */
export function relatedParts(db: StoreDb, no: string, limit = 20): RelatedPart[] {
  const q = no.trim();
  if (q === '') return [];
  const read = relatedReader(db);
  const crossRefs = crossReferences(db);
  const bricklinkOf = crossRefs.bricklinkOf;
  const rebrickableOf = (n: string) => crossRefs.rebrickableOf('bricklink', n);

  const out = new Map<string, RelatedPart>();
  /** A number of either numbering, offered as the catalogue has it. */
  const offer = (n: string, related: Relation) => {
    for (const candidate of [n, ...bricklinkOf(n), ...rebrickableOf(n)]) {
      const found = read.part(candidate);
      if (found === undefined) continue;
      const key = found.no.toLowerCase();
      if (key === q.toLowerCase() || out.has(key)) continue;
      out.set(key, { type: 'P', no: found.no, name: found.name, related });
      return;
    }
  };
  // A LEGO element id: the parts the element tables say it is (BrickLink's codes, Rebrickable's elements).
  for (const n of read.elementParts(q)) offer(n, 'element');
  const own = [q, ...rebrickableOf(q)];
  // The same part in another numbering.
  for (const n of own.slice(1)) offer(n, 'numbering');
  for (const b of bricklinkOf(q)) offer(b, 'numbering');
  const found: { related: Relation; other: string }[] = [];
  for (const n of own) {
    for (const r of read.asChild(n)) {
      if (r.rel === 'A') found.push({ related: 'alternate', other: r.other });
      else if (r.rel === 'M') found.push({ related: 'mould', other: r.other });
      else if (r.rel === 'P' || r.rel === 'T') found.push({ related: 'plain', other: r.other });
    }
    for (const r of read.asParent(n)) {
      if (r.rel === 'A') found.push({ related: 'alternate', other: r.other });
      else if (r.rel === 'M') found.push({ related: 'mould', other: r.other });
      else if (r.rel === 'P' || r.rel === 'T') found.push({ related: 'print', other: r.other });
    }
  }
  for (const relation of RELATIONS) {
    for (const f of found) if (f.related === relation) offer(f.other, relation);
  }
  return [...out.values()].slice(0, limit);
}
