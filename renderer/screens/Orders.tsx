import { Fragment, useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent, type RefObject } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { LineRowView, SuggestionView } from '../../src/api/contract.ts';
import { Colour } from '../components/Colour.tsx';
import { OrderDocuments, UndoneOrder, UndoneTag } from '../components/Documents.tsx';
import { FirstStart } from '../components/FirstStart.tsx';
import { LineTable, ROW_HEIGHT } from '../components/LineTable.tsx';
import { markedPieces } from '../desk.ts';
import { count, money, plural } from '../format.ts';
import { SEARCH_THE_CATALOGUE } from '../menu.ts';
import { shownOptions, useOrders } from '../state/orders.ts';
import { useExports } from '../state/exports.ts';
import { useReloadOnChange } from '../hooks/reload-on-change.ts';

function OrderList() {
  const { orders, query, setQuery, loadOrders, open } = useOrders(
    useShallow((s) => ({
      orders: s.orders,
      query: s.query,
      setQuery: s.setQuery,
      loadOrders: s.loadOrders,
      open: s.open,
    })),
  );
  useReloadOnChange(loadOrders);
  return (
    <section className="screen" aria-label="Orders">
      <div className="toolbar">
        <h2>Orders</h2>
        <input
          className="search"
          type="search"
          placeholder="Search orders by reference or counterparty"
          value={query}
          onChange={(e) => void setQuery(e.target.value)}
          aria-label="Search orders"
        />
      </div>
      {query.trim() === '' ? <FirstStart orders={orders.length} /> : null}
      {orders.length === 0 ? (
        <p className="empty" data-testid="orders-empty">
          {query.trim() !== ''
            ? `No order matches “${query.trim()}”.`
            : 'No orders yet. Import a document to make one.'}
        </p>
      ) : (
        <table className="table" aria-label="Order list">
          <thead>
            <tr>
              <th>Reference</th>
              <th>Counterparty</th>
              <th>Currency</th>
              <th className="num">Lines</th>
              <th className="num">Unplaced</th>
              <th className="num">Value</th>
            </tr>
          </thead>
          <tbody>
            {orders.map((o) => (
              <tr
                key={o.id}
                className="clickable"
                onClick={() => void open(o.id)}
                tabIndex={0}
                onKeyDown={(e) => e.key === 'Enter' && void open(o.id)}
              >
                <td>
                  {o.reference}
                  <UndoneTag order={o} />
                </td>
                <td>{o.counterparty ?? '—'}</td>
                <td>{o.currency}</td>
                <td className="num">{count(o.lines)}</td>
                <td className={`num${o.unplaced ? ' warn' : ''}`}>{count(o.unplaced)}</td>
                <td className="num">{money(o.totalValue, o.currency)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

/** How many rows one PageUp/PageDown moves: what the table shows at once. */
function pageSize(table: RefObject<HTMLDivElement | null>): number {
  const height = table.current?.querySelector<HTMLDivElement>('.line-table')?.clientHeight ?? ROW_HEIGHT * 10;
  return Math.max(1, Math.floor(height / ROW_HEIGHT) - 1);
}

function focusTable(table: RefObject<HTMLDivElement | null>): void {
  table.current?.querySelector<HTMLDivElement>('.line-table')?.focus();
}

/** How a related part is related to the line's number, in a worker's words. */
const RELATED_WORDS: Readonly<Record<NonNullable<SuggestionView['related']>, string>> = {
  numbering: 'the same part in another numbering',
  alternate: 'an alternate',
  mould: 'another mould',
  plain: 'the plain part of this print',
  print: 'a print of it',
};

const RULE_NAMES: Readonly<Record<SuggestionView['rule'], string>> = {
  related: 'Related to its number',
  prefix: 'Longest prefix',
  words: 'All words',
  close: 'Closest names',
  number: 'By number',
};

const ruleName = (rule: SuggestionView['rule']): string => RULE_NAMES[rule];

/** The lines holding every word of `query` in what they give (number, name, colour, remarks) or are placed on. */
function linesMatching(lines: readonly LineRowView[], query: string): readonly LineRowView[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return lines;
  return lines.filter((l) => {
    const text = [
      l.given.no,
      l.given.name,
      l.given.colourName,
      l.givenColour?.name,
      l.remarks,
      l.placed
        ? `${l.placed.no} ${l.placed.name ?? ''} ${l.placed.colourName ?? ''} ${l.placed.via ?? ''}`
        : l.reason?.text,
    ]
      .filter(Boolean)
      .join(' ')
      .toLowerCase();
    return words.every((w) => text.includes(w));
  });
}

/** What the line's document says of it, whole: what staff compare with the catalogue (SPEC §9). */
function LineDetails({ line }: { line: LineRowView }) {
  const rows: [string, string][] = [];
  const given = line.given;
  if (given.type && given.type !== 'P') rows.push(['Type', given.type]);
  if (given.colourName !== null || (given.colourId !== null && given.colourId !== 0))
    rows.push([
      'Colour given',
      [given.colourName, given.colourId !== null && given.colourId !== 0 ? `BrickLink id ${given.colourId}` : null]
        .filter(Boolean)
        .join(' · '),
    ]);
  if (line.remarks) rows.push(['Remarks', line.remarks]);
  if (line.placed?.via) rows.push(['Placed through', line.placed.via]);
  if (rows.length === 0) return null;
  return (
    <dl className="line-details" data-testid="line-details">
      {rows.map(([k, v]) => (
        <Fragment key={k}>
          <dt>{k}</dt>
          <dd>{v}</dd>
        </Fragment>
      ))}
    </dl>
  );
}

/** The catalogue's colours to choose a line's colour from; `none` names the choice of no colour of its own. */
function ColourSelect(props: {
  label: string;
  testId: string;
  none: string;
  colours: readonly { id: number; name: string }[];
  value: number | null;
  onChange: (id: number | null) => void;
  onKeyDown?: (e: KeyboardEvent<HTMLSelectElement>) => void;
}) {
  return (
    <label className="field colour-choice">
      <span>Colour</span>
      <select
        aria-label={props.label}
        data-testid={props.testId}
        value={props.value ?? ''}
        onChange={(e) => props.onChange(e.target.value === '' ? null : Number(e.target.value))}
        {...(props.onKeyDown ? { onKeyDown: props.onKeyDown } : {})}
      >
        <option value="">{props.none}</option>
        {props.colours.map((c) => (
          <option key={c.id} value={c.id}>
            {c.name}
          </option>
        ))}
      </select>
    </label>
  );
}

function SidePanel({ line, table }: { line: LineRowView | null; table: RefObject<HTMLDivElement | null> }) {
  const o = useOrders(
    useShallow((s) => ({
      selectedLine: s.selectedLine,
      suggestions: s.suggestions,
      suggesting: s.suggesting,
      preparing: s.preparing,
      unavailable: s.unavailable,
      search: s.search,
      highlighted: s.highlighted,
      colours: s.colours,
      colourChoice: s.colourChoice,
      pending: s.pending,
      changingItem: s.changingItem,
    })),
  );
  const {
    highlight,
    placeOn,
    setSearch,
    leaveSearch,
    chooseColour,
    changeItem,
    placeInItsItem,
    confirmPending,
    cancelPending,
  } = useOrders(
    useShallow((s) => ({
      highlight: s.highlight,
      placeOn: s.placeOn,
      setSearch: s.setSearch,
      leaveSearch: s.leaveSearch,
      chooseColour: s.chooseColour,
      changeItem: s.changeItem,
      placeInItsItem: s.placeInItsItem,
      confirmPending: s.confirmPending,
      cancelPending: s.cancelPending,
    })),
  );
  // A line unplaced only for its colour has its item: staff choose its colour, unless they chose to change the item.
  const ownItem = line?.itemFound != null && !o.changingItem && o.search.query.trim() === '' ? line.itemFound : null;
  const pending = o.pending !== null && o.pending.lineId === line?.id ? o.pending : null;
  const list = useRef<HTMLOListElement>(null);
  const searchBox = useRef<HTMLInputElement>(null);
  const shown = shownOptions(o);

  // `/` (and the app menu's "Search the catalogue") go to the search box.
  useEffect(() => {
    const onSlash = (e: globalThis.KeyboardEvent) => {
      const typing =
        e.target instanceof HTMLInputElement ||
        e.target instanceof HTMLSelectElement ||
        e.target instanceof HTMLTextAreaElement;
      if (e.key === '/' && !typing) {
        e.preventDefault();
        searchBox.current?.focus();
      }
    };
    const onMenu = () => searchBox.current?.focus();
    window.addEventListener('keydown', onSlash);
    window.addEventListener(SEARCH_THE_CATALOGUE, onMenu);
    return () => {
      window.removeEventListener('keydown', onSlash);
      window.removeEventListener(SEARCH_THE_CATALOGUE, onMenu);
    };
  }, []);

  /** Enter acts only on a list that answers what is on screen: never on an older query's results. */
  const placeHighlighted = () => {
    if (pending !== null) {
      void confirmPending().then(() => focusTable(table));
      return;
    }
    const s = shown.items[o.highlighted];
    if (!shown.current || !s) return;
    void placeOn(s).then(() => {
      if (useOrders.getState().pending === null) focusTable(table);
    });
  };
  const placeInColour = () => {
    const done = pending !== null ? confirmPending() : placeInItsItem();
    void done.then(() => {
      if (useOrders.getState().pending === null && useOrders.getState().colourChoice === null) focusTable(table);
    });
  };
  const onListKey = (e: KeyboardEvent<HTMLOListElement>) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      highlight(Math.max(0, Math.min(shown.items.length - 1, o.highlighted + (e.key === 'ArrowDown' ? 1 : -1))));
    } else if (e.key === 'Enter') {
      e.preventDefault();
      placeHighlighted();
    } else if (e.key === 'Escape' || e.key === 'ArrowLeft') {
      e.preventDefault();
      if (pending !== null) {
        cancelPending();
        return;
      }
      if (shown.mode === 'search') leaveSearch();
      focusTable(table);
    }
  };

  return (
    <aside className="side" aria-label="Suggestions">
      <input
        ref={searchBox}
        className="search"
        type="search"
        placeholder="/ Search the catalogue by name or number"
        aria-label="Search the catalogue"
        data-testid="catalogue-search"
        value={o.search.query}
        disabled={line === null}
        onChange={(e) => void setSearch(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown' || e.key === 'Enter') {
            e.preventDefault();
            if (!shown.current || shown.items.length === 0) return;
            highlight(0);
            list.current?.focus();
          } else if (e.key === 'Escape') {
            e.preventDefault();
            leaveSearch();
            focusTable(table);
          }
        }}
      />
      {line === null ? (
        <p className="empty">Select a line to see why it is unplaced and what it could be.</p>
      ) : (
        <>
          <h3>
            Line {line.position}: {line.given.no ?? ''} {line.given.name ?? ''}
          </h3>
          <LineDetails line={line} />
          {line.reason ? (
            <p className="reason-box" data-testid="reason" data-reason={line.reason.code}>
              {line.reason.text}
            </p>
          ) : (
            <p data-testid="placed-on">
              Placed on{' '}
              <b>
                {line.placed?.type} {line.placed?.no}
              </b>{' '}
              {line.placed?.name}
              {line.placed?.colour != null ? (
                <>
                  {' in '}
                  <Colour id={line.placed.colour} name={line.placed.colourName} rgb={line.placed.colourRgb} />
                </>
              ) : null}
              {line.placed?.by === 'hand' ? ' (by hand).' : '.'}
            </p>
          )}
          {ownItem !== null ? (
            <div className="own-item" data-testid="own-item">
              <p>
                Its item:{' '}
                <b>
                  {ownItem.type} {ownItem.no}
                </b>{' '}
                {ownItem.name ?? ''}. Choose the colour it is in, then press Enter.
              </p>
              <ColourSelect
                label={`Colour of line ${line.position}`}
                testId="colour-for-item"
                none={`Choose a colour for ${line.given.colourName ?? `colour ${line.given.colourId ?? ''}`}`}
                colours={o.colours}
                value={o.colourChoice}
                onChange={chooseColour}
                onKeyDown={(e) => {
                  if (e.key === 'Enter') {
                    e.preventDefault();
                    placeInColour();
                  } else if (e.key === 'Escape') {
                    e.preventDefault();
                    cancelPending();
                    focusTable(table);
                  }
                }}
              />
              <div className="row">
                <button data-testid="place-in-colour" disabled={o.colourChoice === null} onClick={placeInColour}>
                  Place on {ownItem.type} {ownItem.no} in this colour
                </button>
                <button data-testid="change-item" onClick={() => changeItem(true)}>
                  Place on another item…
                </button>
              </div>
            </div>
          ) : o.colours.length > 0 ? (
            <ColourSelect
              label="Colour to place it in"
              testId="colour-choice"
              none={
                line.reason?.code === 'colour-not-in-catalogue'
                  ? `Choose a colour for ${line.given.colourName ?? `colour ${line.given.colourId ?? ''}`}`
                  : `Its own colour (${line.given.colourName ?? line.givenColour?.name ?? (line.given.colourId ? `colour ${line.given.colourId}` : 'none')})`
              }
              colours={o.colours}
              value={o.colourChoice}
              onChange={chooseColour}
            />
          ) : null}
          {pending !== null ? (
            <div className="confirm-box" role="alert" data-testid="confirm-placement">
              <p>{pending.message}</p>
              <p>
                <b>Press Enter again to confirm</b>, or Esc.{' '}
                <button onClick={() => void confirmPending().then(() => focusTable(table))}>Confirm</button>{' '}
                <button onClick={cancelPending}>Cancel</button>
              </p>
            </div>
          ) : null}
          <ol
            hidden={ownItem !== null}
            className="suggestions"
            tabIndex={0}
            ref={list}
            onKeyDown={onListKey}
            aria-label={shown.mode === 'search' ? 'Search results' : 'Suggestions'}
            data-testid="suggestions"
            data-current={shown.current}
          >
            {shown.items.map((s, i) => {
              const group = i === 0 || shown.items[i - 1]?.rule !== s.rule;
              return (
                <li
                  key={`${s.type}${s.no}`}
                  className={i === o.highlighted ? 'highlighted' : ''}
                  aria-selected={i === o.highlighted}
                  onClick={() => {
                    highlight(i);
                    // By mouse as by keyboard: the table has the focus after, on the next unplaced line.
                    void placeOn(s).then(() => {
                      if (useOrders.getState().pending === null) focusTable(table);
                    });
                  }}
                >
                  {group && shown.mode === 'suggestions' ? <span className="group">{ruleName(s.rule)}</span> : null}
                  <b>
                    {s.type} {s.no}
                  </b>{' '}
                  {markedPieces(s.name, s.marks).map((p, k) =>
                    p.marked ? <mark key={k}>{p.text}</mark> : <span key={k}>{p.text}</span>,
                  )}
                  {s.related !== undefined ? <span className="via"> — {RELATED_WORDS[s.related]}</span> : null}
                  {s.via === 'taught' ? (
                    <span className="via"> — by the name “{s.taughtName}” you taught it</span>
                  ) : null}
                </li>
              );
            })}
            {shown.items.length === 0 ? (
              <li className="empty" data-testid="no-options">
                {shown.mode === 'search'
                  ? shown.current
                    ? `Nothing in the catalogue matches “${o.search.query.trim()}”.`
                    : o.preparing
                      ? preparingWords(o.unavailable)
                      : 'Searching the catalogue…'
                  : o.preparing && !line.placed
                    ? preparingWords(o.unavailable)
                    : o.suggesting
                      ? 'Looking for suggestions…'
                      : line.placed
                        ? 'Search the catalogue to place it elsewhere.'
                        : 'No suggestions: search the catalogue by name or number.'}
              </li>
            ) : null}
          </ol>
        </>
      )}
    </aside>
  );
}

function OrderDetail() {
  const {
    order,
    lines: allLines,
    selectedLine,
    unplacedOnly,
  } = useOrders(
    useShallow((s) => ({ order: s.order, lines: s.lines, selectedLine: s.selectedLine, unplacedOnly: s.unplacedOnly })),
  );
  // "Find in lines": the lines whose number, name, colour, remarks or placement hold every word typed.
  const [find, setFind] = useState('');
  const lines = useMemo(() => linesMatching(allLines, find), [allLines, find]);
  const { reload, close, select, setUnplacedOnly, highlight } = useOrders(
    useShallow((s) => ({
      reload: s.reload,
      close: s.close,
      select: s.select,
      setUnplacedOnly: s.setUnplacedOnly,
      highlight: s.highlight,
    })),
  );
  const documents = useOrders((s) => s.documents);
  const table = useRef<HTMLDivElement>(null);
  useReloadOnChange(reload);
  // Keyboard first: the line table has the focus as soon as the order is on screen.
  const shownOrder = order?.id;
  useEffect(() => focusTable(table), [shownOrder]);
  const onSelect = useCallback((id: number) => void select(id), [select]);

  const onTableKey = (e: KeyboardEvent<HTMLDivElement>) => {
    const index = lines.findIndex((l) => l.id === selectedLine);
    const last = lines.length - 1;
    const to: Record<string, number> = {
      ArrowDown: index + 1,
      ArrowUp: index - 1,
      PageDown: index + pageSize(table),
      PageUp: index - pageSize(table),
      Home: 0,
      End: last,
    };
    // N: the next unplaced line below (Shift+N: above), wrapping; with the filter off too.
    if ((e.key === 'n' || e.key === 'N') && !e.ctrlKey && !e.metaKey && !e.altKey && last >= 0) {
      e.preventDefault();
      const step = e.key === 'N' ? -1 : 1;
      for (let k = 1; k <= lines.length; k++) {
        const candidate = lines[(((index + step * k) % lines.length) + lines.length) % lines.length];
        if (candidate && candidate.placed === null) {
          void select(candidate.id);
          break;
        }
      }
      return;
    }
    if (e.key in to && last >= 0) {
      e.preventDefault();
      const next = lines[Math.max(0, Math.min(last, index < 0 && e.key !== 'End' ? 0 : (to[e.key] ?? 0)))];
      if (next) void select(next.id);
    } else if (e.key === 'Enter' || e.key === 'ArrowRight') {
      const st = useOrders.getState();
      const selected = lines[index];
      if (selected?.itemFound && !st.changingItem) {
        // Unplaced only for its colour: its item stays, staff choose the colour (SPEC §9).
        e.preventDefault();
        table.current?.parentElement?.querySelector<HTMLSelectElement>('[data-testid="colour-for-item"]')?.focus();
        return;
      }
      const shown = shownOptions(st);
      if (!shown.current || shown.items.length === 0) return;
      e.preventDefault();
      highlight(0);
      table.current?.parentElement?.querySelector<HTMLOListElement>('.suggestions')?.focus();
    }
  };

  if (!order)
    return (
      <section className="screen">
        <p className="empty">Loading the order…</p>
      </section>
    );
  if (order.state === 'undone') return <UndoneOrder order={order} documents={documents} onBack={close} />;
  const line = lines.find((l) => l.id === selectedLine) ?? null;
  return (
    <section className="screen order" aria-label="Order">
      <div className="toolbar">
        <button onClick={() => close()}>← Orders</button>
        <h2>
          Order {order.reference}{' '}
          <small>
            {order.counterparty ?? ''} · {order.currency}
          </small>
        </h2>
        <span className="counts">
          {plural(order.lines, 'line')} ·{' '}
          <b className={order.unplaced ? 'warn' : ''}>{count(order.unplaced)} unplaced</b> · value{' '}
          {money(order.totalValue, order.currency)}
        </span>
        <label className="check">
          <input type="checkbox" checked={unplacedOnly} onChange={(e) => void setUnplacedOnly(e.target.checked)} />{' '}
          Unplaced only
        </label>
        <button data-testid="order-export" onClick={() => void useExports.getState().bricklink(order.id)}>
          Export BrickLink XML…
        </button>
        <input
          type="search"
          className="find-lines"
          placeholder="Find in lines (number, name, colour, remarks)"
          aria-label="Find in lines"
          data-testid="find-lines"
          value={find}
          onChange={(e) => setFind(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' || e.key === 'ArrowDown') {
              e.preventDefault();
              const first = lines[0];
              if (first) void select(first.id);
              focusTable(table);
            } else if (e.key === 'Escape') {
              e.preventDefault();
              setFind('');
              focusTable(table);
            }
          }}
        />
      </div>
      <p className="hint">
        ↑/↓, PageUp/PageDown, Home/End move · N / Shift+N: next / previous unplaced line · Enter or → goes to the
        suggestions (or, for a line whose colour is unknown, to its colour) · Enter places the line · / searches the
        catalogue · Esc leaves the search
      </p>
      <OrderDocuments documents={documents} />
      <div className="order-body">
        <div className="lines" ref={table}>
          <div className="line-head">
            <span className="c-pos">#</span>
            <span className="c-given">Given</span>
            <span className="c-colour">Colour</span>
            <span className="c-qty">Qty</span>
            <span className="c-price">Price</span>
            <span className="c-remarks">Remarks</span>
            <span className="c-placed">Placed on / why not</span>
          </div>
          <LineTable
            lines={lines}
            currency={order.currency}
            selected={selectedLine}
            onSelect={onSelect}
            onKey={onTableKey}
          />
        </div>
        <SidePanel line={line} table={table} />
      </div>
    </section>
  );
}

export function Orders() {
  const orderId = useOrders((s) => s.orderId);
  return orderId === null ? <OrderList /> : <OrderDetail />;
}

/** While there are no suggestions yet: being prepared, or, when the core could not prepare them, why. */
function preparingWords(unavailable: string | null): string {
  return unavailable === null ? 'Preparing suggestions…' : `No suggestions for now: ${unavailable}`;
}
