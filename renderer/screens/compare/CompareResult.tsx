import { useEffect, useRef } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { useCompare } from '../../state/compare.ts';
import { useSettings } from '../../state/settings.ts';
import { CompareExportAsk, CompareExports } from './CompareExports.tsx';
import { GroupTable } from './GroupTable.tsx';
import { emptyGroups, GROUP_TITLES, moveSelection, visibleGroups } from './groups.ts';
import { jumpToLine } from './jump.ts';
import { Totals } from './Totals.tsx';

/**
 * A compare's result: the totals, the exports of the difference, and the groups, the differences first.
 * Keyboard first: the rows are one list for ↑/↓, PageUp/PageDown, Home/End; Enter opens the selected
 * row's line in its order. A group's further rows are asked as the selection reaches its last one.
 */
export function CompareResult() {
  const s = useCompare(
    useShallow((x) => ({
      view: x.view,
      rows: x.rows,
      selected: x.selected,
      differencesOnly: x.differencesOnly,
      prices: x.withPrices,
      left: x.left,
      right: x.right,
      pendingExport: x.pendingExport,
    })),
  );
  const list = useRef<HTMLDivElement>(null);
  // A picture on each row unless Settings turned the lines' pictures off.
  const pictures = useSettings((x) => x.settings?.rowPictures !== 'off');
  const loadSettings = useSettings((x) => x.load);
  useEffect(() => void loadSettings(), [loadSettings]);
  const view = s.view;
  useEffect(() => list.current?.focus(), [view]);
  if (view === null) return null;
  const groups = visibleGroups(view, s.differencesOnly);
  const actions = useCompare.getState();
  const open = (group: (typeof groups)[number], index: number) => {
    const row = s.rows[group][index];
    if (row) void jumpToLine(row, s.left, s.right);
  };
  const currency = view.left.currency ?? view.right.currency;
  const differences = view.counts.onlyLeft + view.counts.onlyRight + view.counts.quantityDiffers;
  return (
    <>
      <Totals view={view} />
      <div className="toolbar compare-actions">
        <label className="check">
          <input
            type="checkbox"
            checked={s.differencesOnly}
            onChange={(e) => actions.setDifferencesOnly(e.target.checked)}
            data-testid="differences-only"
          />{' '}
          Differences only
        </label>
        <span className="counts" data-testid="compare-summary">
          {differences === 0
            ? 'No differences in quantity.'
            : `${differences} ${differences === 1 ? 'lot differs' : 'lots differ'}.`}
        </span>
        <CompareExports view={view} />
      </div>
      {s.pendingExport !== null ? <CompareExportAsk pendingExport={s.pendingExport} /> : null}
      <div
        className="compare-groups"
        ref={list}
        tabIndex={0}
        aria-label="Compared lines: ↑ and ↓ move, Enter opens the line in its order"
        data-testid="compare-groups"
        onKeyDown={(e) => {
          if (e.key === 'Enter' && s.selected !== null) {
            e.preventDefault();
            open(s.selected.group, s.selected.index);
            return;
          }
          const next = moveSelection(e.key, groups, s.rows, s.selected);
          if (next === null) return;
          e.preventDefault();
          actions.select(next.group, next.index);
          if (next.index >= s.rows[next.group].length - 1) void actions.more(next.group);
        }}
      >
        {groups.map((g) => (
          <GroupTable
            key={g}
            group={g}
            rows={s.rows[g]}
            total={view.counts[g]}
            selected={s.selected?.group === g ? s.selected.index : null}
            prices={s.prices}
            pictures={pictures}
            currency={currency}
            onSelect={(i) => actions.select(g, i)}
            onOpen={(i) => open(g, i)}
            onMore={() => void actions.more(g)}
          />
        ))}
        {emptyGroups(view).map((g) => (
          <p key={g} className="hint" data-testid="compare-group-empty">
            {GROUP_TITLES[g]}: none
          </p>
        ))}
        {groups.length === 0 ? <p className="hint">Both sides have the same lines.</p> : null}
      </div>
    </>
  );
}
