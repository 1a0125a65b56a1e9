import { useEffect, useState } from 'react';
import type { PreviewDocumentView } from '../../src/api/contract.ts';
import { useApp } from '../state/app.ts';
import { useImport } from '../state/import.ts';
import { useOrders } from '../state/orders.ts';

function day(iso: string | null): string {
  return iso === null ? '—' : iso.slice(0, 16).replace('T', ' ');
}

function Revival({ doc }: { doc: PreviewDocumentView }) {
  const r = doc.revival;
  if (!r) return null;
  const changed = r.pairs.filter((p) => p.changed.length > 0);
  return (
    <div className="revival" data-testid="revival">
      <h4>This document was imported on {day(r.importedAt)} and undone on {day(r.undoneAt)}.</h4>
      <p>
        Importing it again revives it in its order <b>{doc.target?.reference}</b>: its {r.pairs.length} lines pair by position and are updated in
        place; {changed.length === 0 ? 'none of them changed.' : `${changed.length} changed:`}
      </p>
      {changed.length > 0 ? (
        <ul className="pairs">
          {changed.slice(0, 50).map((p) => (
            <li key={p.position}>
              line {p.position}: {p.changed.join(', ')}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

function DocumentPreview({ doc }: { doc: PreviewDocumentView }) {
  const [all, setAll] = useState(false);
  const shown = all ? doc.lines : doc.lines.slice(0, 200);
  return (
    <div className="doc-preview" data-testid="preview">
      <h3>
        {doc.key} <small>{doc.format}</small>
      </h3>
      <dl className="header">
        <dt>Reference</dt>
        <dd>{doc.header.reference ?? '—'}</dd>
        <dt>Counterparty</dt>
        <dd>{doc.header.counterparty ?? '—'}</dd>
        <dt>Currency</dt>
        <dd>{doc.header.currency ?? '— (the order’s or the shop’s)'}</dd>
        <dt>Target</dt>
        <dd>
          {doc.target === null ? '—' : doc.target.kind === 'new' ? `a new order "${doc.target.reference}" in ${doc.target.currency}` : `order "${doc.target.reference}" (${doc.target.currency})`}
        </dd>
        <dt>Lines</dt>
        <dd>
          {doc.counts.total}: {doc.counts.placed} placed, <b className={doc.counts.unplaced ? 'warn' : ''}>{doc.counts.unplaced} unplaced</b>
        </dd>
      </dl>
      {doc.refusal ? <p className="refusal" role="alert">{doc.refusal.message}</p> : null}
      <Revival doc={doc} />
      <table className="table compact">
        <thead>
          <tr>
            <th>#</th>
            <th>Given</th>
            <th className="num">Qty</th>
            <th>Placement</th>
          </tr>
        </thead>
        <tbody>
          {shown.map((l) => (
            <tr key={l.position} className={l.placed ? '' : 'unplaced'}>
              <td>{l.position}</td>
              <td>{[l.given.type, l.given.no, l.given.name].filter(Boolean).join(' · ')}</td>
              <td className="num">{l.quantity}</td>
              <td>
                {l.placed ? (
                  `${l.placed.type} ${l.placed.no}${l.placed.colourName ? ` · ${l.placed.colourName}` : ''}`
                ) : (
                  <span className="reason">{l.reason?.text}</span>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {doc.lines.length > shown.length ? <button onClick={() => setAll(true)}>Show all {doc.lines.length} lines</button> : null}
    </div>
  );
}

export function Import() {
  const im = useImport();
  const { orders, loadOrders, open } = useOrders();
  const go = useApp((s) => s.go);
  const [dragging, setDragging] = useState(false);
  useEffect(() => void loadOrders(), [loadOrders]);
  const preview = im.preview;
  const revives = preview?.documents.some((d) => d.revival !== null) ?? false;
  const blocked = preview === null || preview.refusal !== null || preview.documents.length === 0;

  return (
    <section className="screen" aria-label="Import">
      <div className="toolbar">
        <h2>Import</h2>
      </div>
      <div
        className={`dropzone${dragging ? ' over' : ''}`}
        onDragOver={(e) => {
          e.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={(e) => {
          e.preventDefault();
          setDragging(false);
          const f = e.dataTransfer.files[0];
          if (f) void im.choose(f);
        }}
      >
        <p>Drop an order document here — a BrickLink order (XML), BrickLink XML, a BrickStore file (.bsx) or a CSV part list — or</p>
        <label className="button">
          Choose a file…
          <input
            type="file"
            data-testid="import-file"
            accept=".xml,.bsx,.csv,.txt,.tsv"
            onChange={(e) => {
              const f = e.target.files?.[0];
              if (f) void im.choose(f);
              e.target.value = '';
            }}
          />
        </label>
        {window.brickWork ? <button onClick={() => void im.pick()}>Open…</button> : null}
      </div>
      {preview ? (
        <>
          <div className="toolbar">
            {revives && !im.asNew ? (
              <span>
                Into its order <b>{preview.documents.find((d) => d.revival)?.target?.reference}</b>
              </span>
            ) : (
              <label>
                Into{' '}
                <select value={im.orderId ?? ''} onChange={(e) => void im.setTarget(e.target.value ? Number(e.target.value) : null)} aria-label="Target order">
                  <option value="">a new order (from the file)</option>
                  {orders.map((o) => (
                    <option key={o.id} value={o.id}>
                      order {o.reference} ({o.currency})
                    </option>
                  ))}
                </select>
              </label>
            )}
            {revives || im.asNew ? (
              <label className="check">
                <input type="checkbox" checked={im.asNew} onChange={(e) => void im.setAsNew(e.target.checked)} /> Import as a new document (the undone one stays undone)
              </label>
            ) : null}
            <button
              className="primary"
              data-testid="confirm-import"
              disabled={blocked || im.busy}
              onClick={() =>
                void im.confirm().then((results) => {
                  const first = results?.[0];
                  if (first) {
                    go('orders');
                    void open(first.order.id);
                  }
                })
              }
            >
              {revives && !im.asNew ? 'Revive' : 'Import'}
            </button>
            <button onClick={() => im.reset()}>Clear</button>
          </div>
          {preview.refusal && preview.documents.length === 0 ? <p className="refusal" role="alert">{preview.refusal.message}</p> : null}
          {preview.documents.map((d) => (
            <DocumentPreview key={d.key} doc={d} />
          ))}
        </>
      ) : null}
    </section>
  );
}
