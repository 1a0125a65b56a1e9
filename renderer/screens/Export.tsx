import { useShallow } from 'zustand/react/shallow';
import { count } from '../format.ts';
import { useExports } from '../state/exports.ts';
import { ExportReview, LeftOutTable } from './export/ExportReview.tsx';
import { useReloadOnChange } from '../hooks/reload-on-change.ts';

export function Export() {
  const ex = useExports(
    useShallow((s) => ({
      last: s.last,
      orderId: s.orderId,
      includeUnplaced: s.includeUnplaced,
      review: s.review,
      orders: s.orders,
    })),
  );
  const actions = useExports.getState();
  // Every order, whatever the Orders screen is searching for (issue 64 §2).
  useReloadOnChange(actions.loadOrders);
  const orders = ex.orders;
  const withLines = orders.filter((o) => o.lines > 0);
  const orderId = ex.orderId;
  const review = ex.review;
  return (
    <section className="screen" aria-label="Export">
      <div className="toolbar">
        <h2>Export</h2>
      </div>
      <div className="cards">
        <div className="card">
          <h3>Summary (CSV)</h3>
          <p>
            One row per order with saved lines: reference, counterparty, currency, documents, lines, placed, unplaced,
            total quantity, total value.
          </p>
          <button className="primary" onClick={() => void actions.summary()}>
            Export the summary…
          </button>
        </div>
        <div className="card">
          <h3>An order, for BrickLink or Rebrickable</h3>
          <p>
            Its saved lines in the numbering of where they go: BrickLink XML (mass upload) in BrickLink’s numbers, or
            Rebrickable’s part list in Rebrickable’s numbers and colours. Every line left out is named.
          </p>
          <select
            value={orderId ?? ''}
            onChange={(e) => actions.choose(e.target.value ? Number(e.target.value) : null)}
            aria-label="Order to export"
          >
            <option value="">Choose an order</option>
            {withLines.map((o) => (
              <option key={o.id} value={o.id}>
                {o.reference} — {count(o.placed)} placed {o.placed === 1 ? 'line' : 'lines'}
              </option>
            ))}
          </select>
          <label className="check">
            <input
              type="checkbox"
              checked={ex.includeUnplaced}
              onChange={(e) => actions.setIncludeUnplaced(e.target.checked)}
              data-testid="include-unplaced"
            />{' '}
            Include unplaced lines as their document gave them (BrickLink documents, to BrickLink)
          </label>
          <div className="row">
            <button
              disabled={orderId === null}
              onClick={() => orderId !== null && void actions.order(orderId, 'bricklink')}
            >
              Export BrickLink XML…
            </button>
            <button
              disabled={orderId === null}
              onClick={() => orderId !== null && void actions.order(orderId, 'rebrickable')}
            >
              Export Rebrickable CSV…
            </button>
          </div>
        </div>
      </div>
      {review !== null ? (
        <ExportReview review={review} orderName={withLines.find((o) => o.id === review.orderId)?.reference ?? null} />
      ) : null}
      {ex.last ? (
        <div className="card">
          <h3>{ex.last.name}</h3>
          {ex.last.leftOut !== undefined && ex.last.leftOut.length > 0 ? (
            <>
              <p data-testid="export-left-out-note">{ex.last.note}</p>
              <LeftOutTable leftOut={ex.last.leftOut} label="Lines left out" testId="export-left-out" />
            </>
          ) : null}
          <pre className="export-preview" data-testid="export-preview">
            {ex.last.content.slice(0, 4000)}
          </pre>
        </div>
      ) : null}
    </section>
  );
}
