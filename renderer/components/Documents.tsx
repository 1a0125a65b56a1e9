import { useEffect, useRef, useState } from 'react';
import type { DocumentView, OrderView } from '../../src/api/contract.ts';
import { count, plural, when } from '../format.ts';
import { useApp } from '../state/app.ts';
import { useDocuments } from '../state/documents.ts';
import { READ_ONLY_TITLE } from '../store-banner.ts';
import { focusNext } from '../focus-next.ts';

/**
 * An order's documents and "Take back this import" (SPEC §8, §9): any imported document can be taken
 * back as an undo step of its own; one that came with others in a file is offered with them.
 */

function keys(docs: readonly { key: string; orderReference: string }[]): string {
  return docs.map((d) => `${d.key} (order ${d.orderReference})`).join(', ');
}

/** The button and, once pressed, the question in the page (never a modal of the browser's). */
export function TakeBack({
  doc,
  onDone,
  label = 'Take back this import',
  focusAfter = ['[data-testid="line-table"]', '[data-testid="order-back"]', 'main'],
}: {
  doc: DocumentView;
  onDone?: () => void;
  label?: string;
  /** Where the work goes on once it is taken back (first found): by default the order's lines, else the way back to the list. */
  focusAfter?: readonly string[];
}) {
  const [asking, setAsking] = useState(false);
  // The next thing to do is to confirm or not (issue 47): the focus goes to the question, one Tab from its button.
  const dialog = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (asking) dialog.current?.focus();
  }, [asking]);
  const busy = useDocuments((s) => s.busy);
  const takeBack = useDocuments((s) => s.takeBack);
  const readOnly = useApp((s) => s.store?.readOnly != null);
  if (doc.state !== 'imported') return null;
  const go = (wholeFile: boolean) =>
    void takeBack(doc, wholeFile).then((r) => {
      setAsking(false);
      if (!r) return;
      onDone?.();
      // The work goes on where it was (issue 64 §1), never on the page's body.
      focusNext(focusAfter);
    });
  if (!asking) {
    return (
      <button
        onClick={() => setAsking(true)}
        disabled={busy !== null || readOnly}
        title={readOnly ? READ_ONLY_TITLE : undefined}
        data-testid="take-back"
      >
        {label}
      </button>
    );
  }
  const others = doc.sameFile;
  return (
    <div
      className="confirm"
      role="dialog"
      aria-label={`Take back ${doc.key}`}
      data-testid="take-back-confirm"
      tabIndex={-1}
      ref={dialog}
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.preventDefault();
          setAsking(false);
        }
      }}
    >
      <p>
        Take back <b>{doc.key}</b>, imported {when(doc.importedAt)}? Its {plural(doc.lines, 'line')} leave the order.
        Undo puts it back, and importing the file again revives it.
      </p>
      {others.length > 0 ? (
        <p>
          {doc.fileName} also brought in {keys(others)}. Take {others.length === 1 ? 'it' : 'them'} back too, so that
          the file can be imported again whole?
        </p>
      ) : null}
      <div className="row">
        {others.length > 0 ? (
          <>
            <button
              className="primary"
              disabled={busy !== null}
              onClick={() => go(true)}
              data-testid="take-back-whole-file"
            >
              Take back all {count(others.length + 1)} from {doc.fileName}
            </button>
            <button disabled={busy !== null} onClick={() => go(false)} data-testid="take-back-only">
              Only {doc.key}
            </button>
          </>
        ) : (
          <button className="primary" disabled={busy !== null} onClick={() => go(false)} data-testid="take-back-only">
            Take back
          </button>
        )}
        <button disabled={busy !== null} onClick={() => setAsking(false)}>
          Cancel
        </button>
      </div>
    </div>
  );
}

/** The order's documents: key, file, when imported, state; each imported one can be taken back. */
export function OrderDocuments({ documents, open = false }: { documents: readonly DocumentView[]; open?: boolean }) {
  if (documents.length === 0) return null;
  const imported = documents.filter((d) => d.state === 'imported').length;
  return (
    <details className="documents" open={open} data-testid="documents">
      <summary>
        {plural(documents.length, 'document')}
        {imported < documents.length ? `, ${count(documents.length - imported)} taken back` : ''}
      </summary>
      <table className="table compact" aria-label="Documents">
        <thead>
          <tr>
            <th>Document</th>
            <th>File</th>
            <th>Imported</th>
            <th className="num">Lines</th>
            <th>State</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {documents.map((d) => (
            <tr key={d.id} data-testid="document" data-state={d.state} className={d.state === 'undone' ? 'muted' : ''}>
              <td>{d.key}</td>
              <td>{d.fileName}</td>
              <td>{when(d.importedAt)}</td>
              <td className="num">{count(d.lines)}</td>
              <td>{d.state === 'imported' ? 'imported' : `taken back ${when(d.undoneAt)}`}</td>
              <td>
                <TakeBack doc={d} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  );
}

/** What an order whose documents were all taken back says, in place of an empty line table. */
export function undoneText(order: OrderView): string {
  return `Taken back on ${when(order.undoneAt)}; import the file again to revive it.`;
}

/** An undone order: the banner and its documents, not an empty "0 lines" order. */
export function UndoneOrder({
  order,
  documents,
  onBack,
}: {
  order: OrderView;
  documents: readonly DocumentView[];
  onBack: () => void;
}) {
  return (
    <section className="screen order" aria-label="Order">
      <div className="toolbar">
        <button onClick={onBack} data-testid="order-back">
          ← Orders
        </button>
        <OrderHeading order={order} />
      </div>
      <p className="banner undone" role="status" data-testid="order-undone">
        This order is undone: every document of it was taken back. {undoneText(order)}
      </p>
      <OrderDocuments documents={documents} open />
    </section>
  );
}

/** An order's heading: its reference, counterparty and currency. */
export function OrderHeading({ order }: { order: OrderView }) {
  return (
    <h2>
      Order {order.reference}{' '}
      <small>
        {order.counterparty ?? ''} · {order.currency}
      </small>
    </h2>
  );
}

/** The orders list's mark on an undone order. */
export function UndoneTag({ order }: { order: OrderView }) {
  if (order.state !== 'undone') return null;
  return (
    <em className="tag undone" data-testid="order-undone-tag" title={undoneText(order)}>
      taken back {when(order.undoneAt)}
    </em>
  );
}
