import { useEffect, useRef, type KeyboardEvent } from 'react';
import { LineTable } from '../components/LineTable.tsx';
import { useApp } from '../state/app.ts';
import { useOrders } from '../state/orders.ts';

function OrderList() {
  const { orders, query, setQuery, loadOrders, open } = useOrders();
  const revision = useApp((s) => s.revision);
  useEffect(() => void loadOrders(), [loadOrders, revision]);
  return (
    <section className="screen" aria-label="Orders">
      <div className="toolbar">
        <h2>Orders</h2>
        <input className="search" type="search" placeholder="Search orders by reference or counterparty" value={query} onChange={(e) => void setQuery(e.target.value)} aria-label="Search orders" />
      </div>
      {orders.length === 0 ? (
        <p className="empty">No orders yet. Import a document to make one.</p>
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
              <tr key={o.id} className="clickable" onClick={() => void open(o.id)} tabIndex={0} onKeyDown={(e) => e.key === 'Enter' && void open(o.id)}>
                <td>{o.reference}</td>
                <td>{o.counterparty ?? '—'}</td>
                <td>{o.currency}</td>
                <td className="num">{o.lines}</td>
                <td className={`num${o.unplaced ? ' warn' : ''}`}>{o.unplaced}</td>
                <td className="num">{o.totalValue}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

function OrderDetail() {
  const o = useOrders();
  const revision = useApp((s) => s.revision);
  const table = useRef<HTMLDivElement>(null);
  const suggestionsList = useRef<HTMLOListElement>(null);
  const searchBox = useRef<HTMLInputElement>(null);
  const reload = o.reload;
  useEffect(() => void reload(), [reload, revision]);
  // Keyboard first: the line table has the focus as soon as the order is on screen.
  const shownOrder = o.order?.id;
  useEffect(() => table.current?.querySelector<HTMLDivElement>('.line-table')?.focus(), [shownOrder]);
  useEffect(() => {
    const onSlash = (e: globalThis.KeyboardEvent) => {
      if (e.key === '/' && !(e.target instanceof HTMLInputElement)) {
        e.preventDefault();
        searchBox.current?.focus();
      }
    };
    window.addEventListener('keydown', onSlash);
    return () => window.removeEventListener('keydown', onSlash);
  }, []);

  const line = o.lines.find((l) => l.id === o.selectedLine) ?? null;
  const options = o.searchResults.length > 0 ? o.searchResults : o.suggestions;

  const onTableKey = (e: KeyboardEvent<HTMLDivElement>) => {
    const index = o.lines.findIndex((l) => l.id === o.selectedLine);
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      const next = o.lines[Math.max(0, Math.min(o.lines.length - 1, index + (e.key === 'ArrowDown' ? 1 : -1)))];
      if (next) void o.select(next.id);
    } else if ((e.key === 'Enter' || e.key === 'ArrowRight') && options.length > 0) {
      e.preventDefault();
      o.highlight(0);
      suggestionsList.current?.focus();
    }
  };
  const onSuggestionKey = (e: KeyboardEvent<HTMLOListElement>) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      o.highlight(Math.max(0, Math.min(options.length - 1, o.highlighted + (e.key === 'ArrowDown' ? 1 : -1))));
    } else if (e.key === 'Enter') {
      e.preventDefault();
      const s = options[o.highlighted];
      if (s) void o.placeOn(s).then(() => table.current?.querySelector<HTMLDivElement>('.line-table')?.focus());
    } else if (e.key === 'Escape' || e.key === 'ArrowLeft') {
      e.preventDefault();
      table.current?.querySelector<HTMLDivElement>('.line-table')?.focus();
    }
  };

  if (!o.order) return <section className="screen"><p className="empty">Loading the order…</p></section>;
  return (
    <section className="screen order" aria-label="Order">
      <div className="toolbar">
        <button onClick={() => o.close()}>← Orders</button>
        <h2>
          Order {o.order.reference} <small>{o.order.counterparty ?? ''} · {o.order.currency}</small>
        </h2>
        <span className="counts">
          {o.order.lines} lines · <b className={o.order.unplaced ? 'warn' : ''}>{o.order.unplaced} unplaced</b> · value {o.order.totalValue}
        </span>
        <label className="check">
          <input type="checkbox" checked={o.unplacedOnly} onChange={(e) => void o.setUnplacedOnly(e.target.checked)} /> Unplaced only
        </label>
      </div>
      <p className="hint">↑/↓ move · Enter or → goes to the suggestions · Enter places the line on the highlighted one · / searches the catalogue</p>
      <div className="order-body">
        <div className="lines" ref={table}>
          <div className="line-head">
            <span className="c-pos">#</span>
            <span className="c-given">Given</span>
            <span className="c-colour">Colour</span>
            <span className="c-qty">Qty</span>
            <span className="c-price">Price</span>
            <span className="c-placed">Placed on / why not</span>
          </div>
          <LineTable lines={o.lines} selected={o.selectedLine} onSelect={(id) => void o.select(id)} onKey={onTableKey} />
        </div>
        <aside className="side" aria-label="Suggestions">
          <input
            ref={searchBox}
            className="search"
            type="search"
            placeholder="/ Search the catalogue by name or number"
            aria-label="Search the catalogue"
            value={o.searchQuery}
            onChange={(e) => void o.search(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'ArrowDown' || e.key === 'Enter') {
                e.preventDefault();
                o.highlight(0);
                suggestionsList.current?.focus();
              } else if (e.key === 'Escape') {
                void o.search('');
                table.current?.querySelector<HTMLDivElement>('.line-table')?.focus();
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
              {line.reason ? (
                <p className="reason-box" data-testid="reason" data-reason={line.reason.code}>
                  {line.reason.text}
                </p>
              ) : (
                <p>
                  Placed on {line.placed?.type} {line.placed?.no}
                  {line.placed?.colourName ? ` in ${line.placed.colourName}` : ''} ({line.placed?.by}).
                </p>
              )}
              {o.colours.length > 0 ? (
                <label className="field colour-choice">
                  <span>Colour</span>
                  <select
                    aria-label="Colour to place it in"
                    data-testid="colour-choice"
                    value={o.colourChoice ?? ''}
                    onChange={(e) => o.chooseColour(e.target.value === '' ? null : Number(e.target.value))}
                  >
                    <option value="">
                      {line.reason?.code === 'colour-not-in-catalogue'
                        ? `Choose a colour for ${line.given.colourName ?? `colour ${line.given.colourId ?? ''}`}`
                        : `Its own colour (${line.given.colourName ?? (line.given.colourId ? `colour ${line.given.colourId}` : 'none')})`}
                    </option>
                    {o.colours.map((c) => (
                      <option key={c.id} value={c.id}>
                        {c.name}
                      </option>
                    ))}
                  </select>
                </label>
              ) : null}
              <ol className="suggestions" tabIndex={0} ref={suggestionsList} onKeyDown={onSuggestionKey} aria-label={o.searchResults.length ? 'Search results' : 'Suggestions'} data-testid="suggestions">
                {options.map((s, i) => {
                  const group = i === 0 || options[i - 1]?.rule !== s.rule;
                  return (
                    <li key={`${s.type}${s.no}`} className={i === o.highlighted ? 'highlighted' : ''} aria-selected={i === o.highlighted} onClick={() => { o.highlight(i); void o.placeOn(s); }}>
                      {group ? <span className="group">{s.rule === 'prefix' ? 'Longest prefix' : s.rule === 'words' ? 'All words' : 'By number'}</span> : null}
                      <b>{s.type} {s.no}</b> {s.name}
                    </li>
                  );
                })}
                {options.length === 0 ? (
                  <li className="empty">{o.suggesting ? 'Looking for suggestions…' : line.placed ? 'Search the catalogue to place it elsewhere.' : 'No suggestions.'}</li>
                ) : null}
              </ol>
            </>
          )}
        </aside>
      </div>
    </section>
  );
}

export function Orders() {
  const orderId = useOrders((s) => s.orderId);
  return orderId === null ? <OrderList /> : <OrderDetail />;
}
