import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { OrderDocuments, UndoneOrder } from '../../components/Documents.tsx';
import { LineTable } from '../../components/LineTable.tsx';
import { useReloadOnChange } from '../../hooks/reload-on-change.ts';
import { useOrders } from '../../state/orders.ts';
import { useSettings } from '../../state/settings.ts';
import { lineTableKeys, linesMatching } from './line-keys.ts';
import { OrderToolbar } from './OrderToolbar.tsx';
import { SidePanel } from './SidePanel.tsx';
import { focusTable } from './table-focus.ts';

/** An order: its header, documents and line table, with the selected line's panel beside (SPEC §9). */
export function OrderDetail() {
  const {
    order,
    lines: allLines,
    selectedLine,
    documents,
    reload,
    close,
    select,
  } = useOrders(
    useShallow((s) => ({
      order: s.order,
      lines: s.lines,
      selectedLine: s.selectedLine,
      documents: s.documents,
      reload: s.reload,
      close: s.close,
      select: s.select,
    })),
  );
  // "Find in lines": the lines whose number, name, colour, remarks or placement hold every word typed.
  const [find, setFind] = useState('');
  const lines = useMemo(() => linesMatching(allLines, find), [allLines, find]);
  const table = useRef<HTMLDivElement>(null);
  useReloadOnChange(reload);
  // Keyboard first: the line table has the focus as soon as the order is on screen.
  const shownOrder = order?.id;
  useEffect(() => focusTable(table), [shownOrder]);
  const onSelect = useCallback((id: number) => void select(id), [select]);
  // A picture on each line unless Settings turned them off (on while the settings are being read).
  const pictures = useSettings((s) => s.settings?.rowPictures !== 'off');
  const loadSettings = useSettings((s) => s.load);
  useEffect(() => void loadSettings(), [loadSettings]);

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
      <OrderToolbar order={order} find={find} setFind={setFind} lines={lines} toTable={() => focusTable(table)} />
      <p className="hint">
        ↑/↓, PageUp/PageDown, Home/End move · N / Shift+N: next / previous unplaced line · Enter or → goes to the
        suggestions (or, for a line whose colour is unknown, to its colour) · Enter places the line · / searches the
        catalogue · Esc leaves the search
      </p>
      <div className="order-body">
        <div className={pictures ? 'lines with-pictures' : 'lines'} ref={table}>
          <div className="line-head">
            <span className="c-pos">#</span>
            {pictures ? <span className="c-pic" aria-hidden="true" /> : null}
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
            onKey={lineTableKeys(lines, table)}
            pictures={pictures}
          />
        </div>
        <SidePanel line={line} lines={lines} table={table} />
      </div>
      {/* After the lines in the tab order (a Tab from the search reaches the table, not a take-back), shown
          above them (styles.css: .order-documents) — issue 64 §1. */}
      {documents.length > 0 ? (
        <div className="order-documents">
          <OrderDocuments documents={documents} />
        </div>
      ) : null}
    </section>
  );
}
