import type { CompareRowView, CompareView } from '../../../src/api/contract.ts';
import { COMPARE_GROUPS, type CompareGroup } from '../../../src/vocabulary/compare-kinds.ts';

/** Each group's title, in a shop worker's words. */
export const GROUP_TITLES: Readonly<Record<CompareGroup, string>> = {
  onlyLeft: 'Only on the left',
  onlyRight: 'Only on the right',
  quantityDiffers: 'Quantity differs',
  priceDiffers: 'Price differs',
  unplaced: 'Not placed — matched only by what the lines give',
  same: 'The same on both sides',
};

/**
 * The differences' groups that have nothing in them, said so ("Only on the right: none") rather than left
 * out, so that staff need not wonder whether a group was shown at all.
 */
export function emptyGroups(view: CompareView): CompareGroup[] {
  return (['onlyLeft', 'onlyRight', 'quantityDiffers'] as const).filter((g) => view.counts[g] === 0);
}

/** The groups on screen, in order: those with rows; the lines that agree only when asked for (unplaced rows always: they are listed apart). */
export function visibleGroups(view: CompareView, differencesOnly: boolean): CompareGroup[] {
  return COMPARE_GROUPS.filter((g) => view.counts[g] > 0 && !(differencesOnly && g === 'same'));
}

type Position = { group: CompareGroup; index: number };

/**
 * Where a key moves the selection through the rows on screen (↑/↓, PageUp/PageDown, Home/End), across
 * groups as if one list; null when the key is not a move.
 */
export function moveSelection(
  key: string,
  groups: readonly CompareGroup[],
  rows: Readonly<Record<CompareGroup, readonly CompareRowView[]>>,
  selected: Position | null,
): Position | null {
  const flat: Position[] = groups.flatMap((group) => rows[group].map((_, index) => ({ group, index })));
  if (flat.length === 0) return null;
  const at = selected === null ? -1 : flat.findIndex((p) => p.group === selected.group && p.index === selected.index);
  const step: Record<string, number> = { ArrowDown: 1, ArrowUp: -1, PageDown: 15, PageUp: -15 };
  let next: number;
  if (key === 'Home') next = 0;
  else if (key === 'End') next = flat.length - 1;
  else if (step[key] !== undefined) next = at < 0 ? 0 : at + (step[key] ?? 0);
  else return null;
  return flat[Math.max(0, Math.min(flat.length - 1, next))] ?? null;
}

/** A row as staff name it: the catalogue's number and name, or, unplaced, what its lines gave. */
export function rowName(r: CompareRowView): { no: string; name: string } {
  if (r.item !== null)
    return {
      no: `${r.item.type === 'P' ? '' : `${r.item.type} `}${r.item.shown ?? r.item.no}`,
      name: r.item.name ?? '',
    };
  return { no: r.given.no ?? '', name: r.given.name ?? '' };
}
