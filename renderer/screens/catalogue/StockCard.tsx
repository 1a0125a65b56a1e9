import { useEffect, useRef, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { StockInfoView } from '../../../src/api/contract.ts';
import { FilePicker } from '../../components/FilePicker.tsx';
import { count, plural, when } from '../../format.ts';
import { useApp } from '../../state/app.ts';
import { importBlocked } from '../../state/import.ts';
import { useOrders } from '../../state/orders.ts';
import { useStock } from '../../state/stock.ts';
import { READ_ONLY_TITLE } from '../../store-banner.ts';
import { DocumentPreview } from '../import/DocumentPreview.tsx';
import { StockLookup } from './StockLookup.tsx';

/** Opens the stock's lines as an order's: on its unplaced ones when some are, to fix them there. */
async function openStockLines(s: StockInfoView): Promise<void> {
  useApp.getState().go('orders', 'app');
  useOrders.setState({ unplacedOnly: s.unplaced > 0 });
  await useOrders.getState().open(s.orderId, 'app');
}

/** What the stock holds: its lots and pieces, where they are, what is unplaced, and where it came from. */
function StockHolds({ s }: { s: StockInfoView }) {
  return (
    <>
      <p data-testid="stock-holds">
        <b>{plural(s.lots, 'lot')}</b>, <b>{plural(s.pieces, 'piece')}</b> in <b>{plural(s.locations, 'location')}</b>
        {s.lotsWithoutLocation > 0 ? (
          <>
            ; <b className="warn">{plural(s.lotsWithoutLocation, 'lot')} without a location</b>
          </>
        ) : null}
        {'; '}
        <b className={s.unplaced > 0 ? 'warn' : ''}>{count(s.unplaced)} unplaced</b>.
      </p>
      <p className="muted" data-testid="stock-from">
        Imported {when(s.importedAt)} from {s.fileName}
        {s.desk ? ` by the desk “${s.desk}”` : ''}. {count(s.lotsWithLotId)} of its lots have BrickLink’s lot id (a Mass
        Update needs it).
      </p>
    </>
  );
}

/**
 * The stock (SPEC §16): on Catalogue & jobs, beside the catalogue, because like the catalogue it is the
 * shop's own reference, imported now and then and read by every order's pick and put-away lists.
 */
export function StockCard() {
  const st = useStock(useShallow((s) => ({ info: s.info, choose: s.choose, busy: s.busy, file: s.file })));
  return (
    <div className="card" data-testid="stock-card">
      <h3>Stock</h3>
      {st.info === undefined ? (
        <p>…</p>
      ) : st.info === null ? (
        <p data-testid="stock-none">
          No stock yet. Import the shop’s inventory (BrickLink’s store inventory download, a BrickStore file of the
          store, or a CSV with a location column) to pick orders and put purchases away.
        </p>
      ) : (
        <StockHolds s={st.info} />
      )}
      <div className="row">
        {st.info ? (
          <button data-testid="stock-open" onClick={() => st.info && void openStockLines(st.info)}>
            {st.info.unplaced > 0 ? `Fix its ${plural(st.info.unplaced, 'unplaced lot')}` : 'Open the stock’s lots'}
          </button>
        ) : null}
        <FilePicker
          label={st.info ? 'Import a newer stock…' : 'Import the stock…'}
          testId="stock-file"
          // Ctrl+O on this screen stays the catalogue's picker.
          shortcut={false}
          disabled={st.busy}
          onFiles={(files) => {
            const first = files[0];
            if (first) void st.choose(first);
          }}
        />
      </div>
      <StockLookup />
    </div>
  );
}

/** Where the lots' locations are read from: each lot's remarks, or a column staff name. */
function LocationFrom() {
  const { locationFrom, setLocationFrom, busy } = useStock(
    useShallow((s) => ({ locationFrom: s.locationFrom, setLocationFrom: s.setLocationFrom, busy: s.busy })),
  );
  const [column, setColumn] = useState(locationFrom ?? '');
  const byColumn = locationFrom !== null && locationFrom !== 'remarks';
  const [typing, setTyping] = useState(byColumn);
  const apply = () => void setLocationFrom(column.trim() === '' ? null : column.trim());
  return (
    <label>
      Locations from{' '}
      <select
        aria-label="Locations from"
        data-testid="stock-location-from"
        value={typing ? 'column' : 'remarks'}
        disabled={busy}
        onChange={(e) => {
          const col = e.target.value === 'column';
          setTyping(col);
          if (!col) void setLocationFrom(null);
        }}
      >
        <option value="remarks">each lot’s remarks</option>
        <option value="column">a column named…</option>
      </select>
      {typing ? (
        <>
          {' '}
          <input
            aria-label="The location column’s title"
            data-testid="stock-location-column"
            placeholder="Bin"
            value={column}
            onChange={(e) => setColumn(e.target.value)}
            onBlur={apply}
            onKeyDown={(e) => {
              if (e.key === 'Enter') {
                e.preventDefault();
                apply();
              }
            }}
          />
        </>
      ) : null}
    </label>
  );
}

/**
 * A stock file read before it is imported: the import preview's parts, with what the stock keeps (where
 * its locations come from, lots without one, lot ids) and the stock it replaces; then Import, one undo step.
 */
export function StockPreview() {
  const st = useStock(
    useShallow((s) => ({
      preview: s.preview,
      busy: s.busy,
      acknowledged: s.acknowledged,
      acknowledge: s.acknowledge,
      colourNumbering: s.colourNumbering,
      setColourNumbering: s.setColourNumbering,
      refresh: s.refresh,
      confirm: s.confirm,
      reset: s.reset,
    })),
  );
  const readOnly = useApp((s) => s.store?.readOnly != null);
  const importButton = useRef<HTMLButtonElement>(null);
  const previewed = st.preview?.previewId;
  const blocked = importBlocked(st.preview, st.acknowledged);
  // Read: the next key is Import (or, while it is off, the first warning to tick) — never the page's body.
  useEffect(() => {
    if (!previewed) return;
    const at = document.activeElement;
    if (at instanceof HTMLInputElement && at.type === 'text') return;
    const button = importButton.current;
    if (button !== null && !button.disabled) button.focus();
    else document.querySelector<HTMLInputElement>('.stock-preview .warnings input:not(:checked)')?.focus();
  }, [previewed]);
  const p = st.preview;
  if (p === null) return null;
  const refusal = p.refusal?.code === 'needs-acknowledgement' ? null : p.refusal;
  return (
    <section className="stock-preview" aria-label="The stock’s preview" data-testid="stock-preview">
      <div className="toolbar">
        <h3>The stock from {p.fileName}</h3>
        <LocationFrom />
        <button
          ref={importButton}
          className="primary"
          data-testid="stock-confirm"
          disabled={blocked || st.busy || readOnly}
          title={readOnly ? READ_ONLY_TITLE : undefined}
          // Imported: the card's next step (its lots) has the focus, never the page's body.
          onClick={() =>
            void st
              .confirm()
              .then(
                (ok) =>
                  ok && setTimeout(() => document.querySelector<HTMLElement>('[data-testid="stock-open"]')?.focus(), 0),
              )
          }
        >
          Import as the stock
        </button>
        <button onClick={() => st.reset()}>Clear</button>
      </div>
      {p.documents.length > 0 ? (
        <p data-testid="stock-preview-keeps">
          Locations from{' '}
          {p.stock.locationFrom === 'remarks' ? 'each lot’s remarks' : `the column “${p.stock.locationFrom}”`}:{' '}
          {plural(p.stock.locations, 'location')}
          {p.stock.lotsWithoutLocation > 0 ? (
            <b className="warn">, {plural(p.stock.lotsWithoutLocation, 'lot')} without one</b>
          ) : null}
          ; {count(p.stock.lotsWithLotId)} with BrickLink’s lot id.{' '}
          {p.stock.replaces
            ? `It replaces the stock from ${p.stock.replaces.fileName} (imported ${when(p.stock.replaces.importedAt)}); Undo takes it back.`
            : 'It is the first stock.'}
        </p>
      ) : null}
      {refusal && p.documents.length === 0 ? (
        <p className="refusal" role="alert" data-testid="stock-preview-refusal">
          {refusal.message}
        </p>
      ) : null}
      {p.documents.map((d, i) => (
        <DocumentPreview
          key={`${p.previewId}:${d.key}`}
          doc={d}
          previewId={p.previewId}
          index={i}
          // The file the worker chose, not the stock's key (its content's hash, which the store keeps).
          heading={p.fileName}
          controls={{
            acknowledged: st.acknowledged,
            acknowledge: st.acknowledge,
            colourNumbering: st.colourNumbering,
            setColourNumbering: st.setColourNumbering,
            busy: st.busy,
            refresh: st.refresh,
          }}
        />
      ))}
    </section>
  );
}
