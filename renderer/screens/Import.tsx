import { FilePicker } from '../components/FilePicker.tsx';
import { useEffect, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { PreviewDocumentView, PreviewLineView } from '../../src/api/contract.ts';
import { COLOUR_NUMBERING_NAMES, COLOUR_NUMBERINGS, type ColourNumbering } from '../../src/reading.ts';
import { Colour } from '../components/Colour.tsx';
import { TakeBack } from '../components/Documents.tsx';
import { ProgressBar } from '../components/ProgressBar.tsx';
import { attempt, useApp } from '../state/app.ts';
import { call } from '../state/call.ts';
import { importBlocked, useImport } from '../state/import.ts';
import { useOrders } from '../state/orders.ts';
import { count, plural, when } from '../format.ts';

/** The colour a preview line gives: the document's name for it, else the catalogue's, else its id. */
function GivenColour({ l }: { l: PreviewLineView }) {
  const id = l.given.colourId === 0 ? null : l.given.colourId;
  if (id === null && l.given.colourName === null) return null;
  return <Colour id={id} name={l.given.colourName ?? l.givenColour?.name ?? null} rgb={l.givenColour?.rgb ?? null} />;
}

function Revival({ doc }: { doc: PreviewDocumentView }) {
  const r = doc.revival;
  if (!r) return null;
  const changed = r.pairs.filter((p) => p.changed.length > 0);
  return (
    <div className="revival" data-testid="revival">
      <h4>
        This document was imported on {when(r.importedAt)} and undone on {when(r.undoneAt)}.
      </h4>
      <p>
        Importing it again revives it in its order <b>{doc.target?.reference}</b>: its {plural(r.pairs.length, 'line')}{' '}
        pair by position and are updated in place;{' '}
        {changed.length === 0 ? 'none of them changed.' : `${count(changed.length)} changed:`}
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

const HOW_WORDS: Readonly<Record<NonNullable<PreviewDocumentView['colourNumbering']>['how'], string>> = {
  format: 'the format says so',
  title: 'the column’s title says so',
  shape: 'Rebrickable lists are written so',
  chosen: 'as you chose',
  names: 'the colour names agree',
  guessed: 'a guess: the list does not say',
};

/** "BrickLink’s": a numbering as the preview says it. */
const numberingWords = (n: ColourNumbering) => `${COLOUR_NUMBERING_NAMES[n]}’s`;

/**
 * How the file was read (SPEC §8): the columns read and not read, the numbering of its colour numbers
 * (which staff may change for a list), and what the reader assumed, each with the box that acknowledges it.
 */
function Reading({ doc }: { doc: PreviewDocumentView }) {
  const { acknowledged, acknowledge, colourNumbering, setColourNumbering, busy } = useImport(
    useShallow((s) => ({
      acknowledged: s.acknowledged,
      acknowledge: s.acknowledge,
      colourNumbering: s.colourNumbering,
      setColourNumbering: s.setColourNumbering,
      busy: s.busy,
    })),
  );
  const c = doc.colourNumbering;
  return (
    <div className="reading" data-testid="reading">
      {doc.warnings.length > 0 ? (
        <ul className="warnings" aria-label="What the reader assumed">
          {doc.warnings.map((w) => (
            <li key={w.code} className="warning" data-code={w.code}>
              <label className="check">
                <input
                  type="checkbox"
                  checked={acknowledged.includes(w.code)}
                  onChange={(e) => acknowledge(w.code, e.target.checked)}
                />
                <span>
                  {w.message} <b>I have checked this.</b>
                </span>
              </label>
            </li>
          ))}
        </ul>
      ) : null}
      <dl className="header">
        {c !== null ? (
          <>
            <dt>Colour numbers</dt>
            <dd>
              {c.choosable ? (
                <label>
                  read as{' '}
                  <select
                    aria-label="Colour numbers are"
                    value={colourNumbering ?? c.numbering}
                    disabled={busy}
                    onChange={(e) => void setColourNumbering(e.target.value as ColourNumbering)}
                  >
                    {COLOUR_NUMBERINGS.map((n) => (
                      <option key={n} value={n}>
                        {numberingWords(n)}
                      </option>
                    ))}
                  </select>{' '}
                </label>
              ) : (
                <>read as {numberingWords(c.numbering)} </>
              )}
              <small>({HOW_WORDS[c.how]})</small>
            </dd>
          </>
        ) : null}
        <dt>Columns read</dt>
        <dd data-testid="columns-read">{doc.columns.read.map((r) => `${r.title} (${r.as})`).join(', ') || '—'}</dd>
        {doc.columns.notRead.length > 0 ? (
          <>
            <dt>Not read</dt>
            <dd data-testid="columns-not-read">{doc.columns.notRead.join(', ')}</dd>
          </>
        ) : null}
      </dl>
    </div>
  );
}

/** Lines asked at a time when staff want to see more of a big document's preview. */
const MORE_LINES = 1_000;

function DocumentPreview({ doc, previewId, index }: { doc: PreviewDocumentView; previewId: string; index: number }) {
  // The preview brings its first lines; more come page by page (a 200,000-line answer would stall the screens).
  const [more, setMore] = useState<readonly PreviewLineView[]>([]);
  const shown = more.length === 0 ? doc.lines : [...doc.lines, ...more];
  const showMore = async () => {
    const page = await attempt(() =>
      call('import.previewLines', { previewId, document: index, from: shown.length, count: MORE_LINES }),
    );
    if (page !== null) setMore((m) => [...m, ...page]);
  };
  return (
    <div className="doc-preview" data-testid="preview">
      <h3>
        {doc.key} <small>{doc.formatName}</small>
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
          {doc.target === null
            ? '—'
            : doc.target.kind === 'new'
              ? `a new order "${doc.target.reference}" in ${doc.target.currency}`
              : `order "${doc.target.reference}" (${doc.target.currency})`}
        </dd>
        <dt>Lines</dt>
        <dd>
          {count(doc.counts.total)}: {count(doc.counts.placed)} placed,{' '}
          <b className={doc.counts.unplaced ? 'warn' : ''}>{count(doc.counts.unplaced)} unplaced</b>
        </dd>
      </dl>
      {doc.refusal ? (
        <p className="refusal" role="alert">
          {doc.refusal.message}
        </p>
      ) : null}
      {/* A duplicate: take the earlier import back here, and the preview then offers to revive it. */}
      {doc.duplicateOf ? (
        <TakeBack
          doc={doc.duplicateOf}
          label="Take back that import"
          onDone={() => void useImport.getState().refresh()}
        />
      ) : null}
      <Reading doc={doc} />
      <Revival doc={doc} />
      <table className="table compact">
        <thead>
          <tr>
            <th>#</th>
            <th>Given</th>
            <th>Colour</th>
            <th className="num">Qty</th>
            <th>Placement</th>
            <th>Remarks</th>
          </tr>
        </thead>
        <tbody>
          {shown.map((l) => (
            <tr key={l.position} className={l.placed ? '' : 'unplaced'}>
              <td>{l.position}</td>
              <td>{[l.given.type, l.given.no, l.given.name].filter(Boolean).join(' · ')}</td>
              <td>
                <GivenColour l={l} />
              </td>
              <td className="num">{count(l.quantity)}</td>
              <td>
                {l.placed ? (
                  <>
                    {l.placed.type} {l.placed.no}
                    {l.placed.via ? <em className="tag via"> {l.placed.via}</em> : null}
                    {l.placed.colour !== null ? (
                      <>
                        {' '}
                        <Colour id={l.placed.colour} name={l.placed.colourName} rgb={l.placed.colourRgb} />
                      </>
                    ) : null}
                  </>
                ) : (
                  <span className="reason">{l.reason?.text}</span>
                )}
              </td>
              <td className="remarks">{l.remarks}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {doc.counts.total > shown.length ? (
        <button data-testid="preview-more" onClick={() => void showMore()}>
          Show {count(Math.min(MORE_LINES, doc.counts.total - shown.length))} more of its {count(doc.counts.total)}{' '}
          lines
        </button>
      ) : null}
    </div>
  );
}

/** The preview or import under way, by phase, with Cancel until it writes (a big file takes seconds). */
function ImportProgress() {
  const { progress, cancel } = useImport(useShallow((s) => ({ progress: s.progress, cancel: s.cancel })));
  const step = progress?.step === 'confirm' ? 'Importing' : 'Previewing';
  const bar =
    progress === null
      ? { label: 'Starting', done: 0, total: null, unit: '' }
      : progress.phase === 'reading'
        ? // Characters of the file, shown as KB: the reader counts where it is in the text.
          {
            label: `${step}: reading ${progress.fileName}`,
            done: Math.round(progress.done / 1024),
            total: progress.total === null ? null : Math.max(1, Math.round(progress.total / 1024)),
            unit: 'KB',
          }
        : {
            label: `${step}: ${progress.phase === 'placing' ? 'placing' : 'writing'} its lines`,
            done: progress.done,
            total: progress.total,
            unit: 'lines',
          };
  const writing = progress?.phase === 'writing';
  return (
    <div className="toolbar import-progress" data-testid="import-progress" data-phase={progress?.phase ?? 'starting'}>
      <div style={{ flex: 1, maxWidth: 640 }}>
        {/* One bar per phase: it starts again from empty, rather than sliding back. */}
        <ProgressBar
          key={progress?.phase ?? 'starting'}
          label={bar.label}
          done={bar.done}
          total={bar.total}
          unit={bar.unit}
        />
      </div>
      {writing ? (
        <span className="hint">Writing: it can't be stopped now.</span>
      ) : (
        <button onClick={() => void cancel()}>Cancel</button>
      )}
    </div>
  );
}

export function Import() {
  const im = useImport(
    useShallow((s) => ({
      preview: s.preview,
      busy: s.busy,
      asNew: s.asNew,
      orderId: s.orderId,
      choose: s.choose,
      pick: s.pick,
      setTarget: s.setTarget,
      setAsNew: s.setAsNew,
      confirm: s.confirm,
      reset: s.reset,
      acknowledged: s.acknowledged,
    })),
  );
  const { orders, loadOrders, open } = useOrders(
    useShallow((s) => ({ orders: s.orders, loadOrders: s.loadOrders, open: s.open })),
  );
  const go = useApp((s) => s.go);
  const [dragging, setDragging] = useState(false);
  useEffect(() => void loadOrders(), [loadOrders]);
  const preview = im.preview;
  const revives = preview?.documents.some((d) => d.revival !== null) ?? false;
  const blocked = importBlocked(preview, im.acknowledged);
  // Unacknowledged warnings are said beside each warning, with its box; any other refusal here.
  const refusal = preview?.refusal?.code === 'needs-acknowledgement' ? null : (preview?.refusal ?? null);

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
        <p>
          Drop an order document here — a BrickLink order (XML, or the orders download as CSV), BrickLink XML, a
          BrickStore or BrickStock file (.bsx), a CSV part list (Rebrickable’s, BrickLink Studio’s, a spreadsheet’s) —
          or
        </p>
        <FilePicker
          label="Choose a file…"
          testId="import-file"
          accept=".xml,.bsx,.csv,.txt,.tsv"
          onFiles={([f]) => {
            if (f) void im.choose(f);
          }}
        />
        {window.brickWork ? <button onClick={() => void im.pick()}>Open…</button> : null}
      </div>
      {im.busy ? <ImportProgress /> : null}
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
                <select
                  value={im.orderId ?? ''}
                  onChange={(e) => void im.setTarget(e.target.value ? Number(e.target.value) : null)}
                  aria-label="Target order"
                >
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
                <input type="checkbox" checked={im.asNew} onChange={(e) => void im.setAsNew(e.target.checked)} /> Import
                as a new document (the undone one stays undone)
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
                    go('orders', 'app');
                    void open(first.order.id, 'app');
                  }
                })
              }
            >
              {revives && !im.asNew ? 'Revive' : 'Import'}
            </button>
            <button onClick={() => im.reset()}>Clear</button>
            {blocked && preview.refusal?.code === 'needs-acknowledgement' ? (
              <span className="hint">Tick each box below once you have checked it, then import.</span>
            ) : null}
          </div>
          {refusal && preview.documents.length === 0 ? (
            <p className="refusal" role="alert">
              {refusal.message}
            </p>
          ) : null}
          {preview.documents.map((d, i) => (
            <DocumentPreview key={`${preview.previewId}:${d.key}`} doc={d} previewId={preview.previewId} index={i} />
          ))}
        </>
      ) : null}
    </section>
  );
}
