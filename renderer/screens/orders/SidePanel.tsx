import { useEffect, useRef, type RefObject } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { LineRowView, SuggestionView } from '../../../src/api/contract.ts';
import { useApp } from '../../state/app.ts';
import { shownOptions, useOrders } from '../../state/orders.ts';
import type { PendingPlacement } from '../../state/orders/shape.ts';
import { READ_ONLY_TITLE } from '../../store-banner.ts';
import { ColourChoice } from './ColourChoice.tsx';
import { LineSummary } from './LineSummary.tsx';
import { SearchBox } from './SearchBox.tsx';
import { SuggestionList } from './SuggestionList.tsx';
import { focusTable } from './table-focus.ts';

/**
 * A placement that crosses item types waits for a second Enter; one that would move other lines too needs
 * Y, a key a repeated Enter is not (SPEC §9, issue 47). Shown where the eyes are: scrolled into view and
 * announced — and for Y, the focus on it.
 */
function PendingConfirm(props: { message: string; ownKey: boolean; confirm: () => void; cancel: () => void }) {
  const box = useRef<HTMLDivElement>(null);
  const { message, ownKey } = props;
  useEffect(() => {
    box.current?.scrollIntoView({ block: 'nearest' });
    if (ownKey) box.current?.focus();
  }, [message, ownKey]);
  return (
    <div
      ref={box}
      tabIndex={-1}
      className="confirm-box"
      role="alert"
      data-testid="confirm-placement"
      onKeyDown={(e) => {
        if (!ownKey) return;
        if (e.key === 'y' || e.key === 'Y') {
          e.preventDefault();
          props.confirm();
        } else if (e.key === 'Escape') {
          e.preventDefault();
          props.cancel();
        } else if (e.key === 'Enter') e.preventDefault(); // a repeated Enter confirms nothing here
      }}
    >
      <p>{message}</p>
      <p>
        {ownKey ? (
          <>
            <b>Press Y to place them all</b>, or Esc.
          </>
        ) : (
          <>
            <b>Press Enter again to confirm</b>, or Esc.
          </>
        )}{' '}
        <button onClick={props.confirm}>Confirm</button> <button onClick={props.cancel}>Cancel</button>
      </p>
    </div>
  );
}

/** Whether a pending placement changes more than its own line: it is confirmed with its own key. */
function changesMore(pending: PendingPlacement): boolean {
  return pending.confirm.includes('moves-lines');
}

/**
 * Beside the line table: the selected line, its colour, and what to place it on — its suggestions or the
 * catalogue search. After a placement the focus goes back to the table, on the next unplaced line.
 */
export function SidePanel({
  line,
  lines,
  table,
}: {
  line: LineRowView | null;
  /** The lines as the table shows them (N / Shift+N from the suggestions). */
  lines: readonly LineRowView[];
  table: RefObject<HTMLDivElement | null>;
}) {
  const o = useOrders(
    useShallow((s) => ({
      selectedLine: s.selectedLine,
      suggestions: s.suggestions,
      search: s.search,
      highlighted: s.highlighted,
      pending: s.pending,
      changingItem: s.changingItem,
      placeOn: s.placeOn,
      leaveSearch: s.leaveSearch,
      placeInItsItem: s.placeInItsItem,
      confirmPending: s.confirmPending,
      cancelPending: s.cancelPending,
    })),
  );
  // A line unplaced only for its colour has its item: staff choose its colour, unless they chose to change the item.
  const ownItem = line?.itemFound != null && !o.changingItem && o.search.query.trim() === '' ? line.itemFound : null;
  const pending = o.pending !== null && o.pending.lineId === line?.id ? o.pending : null;
  // A store that can't be written (SPEC §11): suggestions and colours are there to look at; placing is off.
  const readOnly = useApp((s) => s.store?.readOnly != null);
  const list = useRef<HTMLOListElement>(null);
  const shown = shownOptions(o);
  const toTable = () => focusTable(table);
  const settled = () => useOrders.getState().pending === null;

  const confirm = () => void o.confirmPending().then(toTable);
  const place = (s: SuggestionView) => {
    if (!readOnly) void o.placeOn(s).then(() => settled() && toTable());
  };
  /** Enter acts only on a list that answers what is on screen: never on an older query's results. */
  const placeHighlighted = () => {
    if (pending !== null) return changesMore(pending) ? undefined : confirm();
    const s = shown.items[o.highlighted];
    if (shown.current && s) place(s);
  };
  const placeInColour = () => {
    if (readOnly) return;
    if (pending !== null && changesMore(pending)) return;
    const done = pending !== null ? o.confirmPending() : o.placeInItsItem();
    void done.then(() => settled() && useOrders.getState().colourChoice === null && toTable());
  };
  const back = () => {
    if (pending !== null) return o.cancelPending();
    if (shown.mode === 'search') o.leaveSearch();
    toTable();
  };

  return (
    <aside className="side" aria-label="Suggestions">
      <SearchBox disabled={line === null} shown={shown} list={list} leave={toTable} />
      {line === null ? (
        <p className="empty">Select a line to see why it is unplaced and what it could be.</p>
      ) : (
        <>
          <LineSummary line={line} />
          {readOnly ? (
            <p className="muted" data-testid="placing-off" title={READ_ONLY_TITLE}>
              Placing is off: this store can't be written (see the banner above).
            </p>
          ) : null}
          <ColourChoice
            line={line}
            ownItem={ownItem}
            readOnly={readOnly}
            placeInColour={placeInColour}
            leave={() => {
              o.cancelPending();
              toTable();
            }}
          />
          {pending !== null ? (
            <PendingConfirm
              message={pending.message}
              ownKey={changesMore(pending)}
              confirm={confirm}
              cancel={() => {
                o.cancelPending();
                list.current?.focus();
              }}
            />
          ) : null}
          <SuggestionList
            line={line}
            shown={shown}
            hidden={ownItem !== null}
            list={list}
            readOnly={readOnly}
            place={place}
            placeHighlighted={placeHighlighted}
            back={back}
            lines={lines}
          />
        </>
      )}
    </aside>
  );
}
