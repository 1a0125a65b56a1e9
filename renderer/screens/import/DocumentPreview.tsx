import { ItemNo } from '../../components/ItemNo.tsx';
import { useState } from 'react';
import type { PreviewDocumentView, PreviewLineView } from '../../../src/api/contract.ts';
import { Colour } from '../../components/Colour.tsx';
import { TakeBack } from '../../components/Documents.tsx';
import { count } from '../../format.ts';
import { attempt } from '../../state/app.ts';
import { call } from '../../state/call.ts';
import { useImport } from '../../state/import.ts';
import { Reading, type ReadingControls } from './Reading.tsx';
import { Revival } from './Revival.tsx';

/** The colour a preview line gives: the document's name for it, else the catalogue's, else its id. */
function GivenColour({ l }: { l: PreviewLineView }) {
  const id = l.given.colourId === 0 ? null : l.given.colourId;
  if (id === null && l.given.colourName === null) return null;
  return <Colour id={id} name={l.given.colourName ?? l.givenColour?.name ?? null} rgb={l.givenColour?.rgb ?? null} />;
}

/** A preview's lines: what each gives, and where it will be placed or why not. */
function PreviewTable({ lines }: { lines: readonly PreviewLineView[] }) {
  return (
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
        {lines.map((l) => (
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
                  {/* In the shop numbering first, as every other screen shows a number (issue 64 §3). */}
                  <ItemNo
                    type={l.placed.type}
                    no={l.placed.no}
                    shown={l.placed.shown}
                    sharedWith={l.placed.sharedWith}
                    compact
                  />
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
  );
}

/** One document of a file as it will be imported (SPEC §8): its header, target, warnings, and lines. */
/** Lines asked at a time when staff want to see more of a big document's preview. */
const MORE_LINES = 1_000;

export function DocumentPreview({
  doc,
  previewId,
  index,
  refusalSaid = false,
  controls,
  heading,
}: {
  doc: PreviewDocumentView;
  previewId: string;
  index: number;
  /** Its refusal is said once above, for every document it refuses: here only its few words. */
  refusalSaid?: boolean;
  /** Another preview's (the stock's): its boxes, its choice, and what a take-back reads again; else the import's. */
  controls?: ReadingControls & { refresh(): Promise<void> };
  /** What it is called on screen where its key is not a name (the stock's is its content's hash); else its key. */
  heading?: string;
}) {
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
        {heading ?? doc.key} <small>{doc.formatName}</small>
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
        refusalSaid ? (
          <p className="refusal">Refused: {doc.refusal.code.replace(/-/g, ' ')} (said above).</p>
        ) : (
          <p className="refusal" role="alert">
            {doc.refusal.message}
          </p>
        )
      ) : null}
      {/* A duplicate: take the earlier import back here, and the preview then offers to revive it. */}
      {doc.duplicateOf ? (
        <TakeBack
          doc={doc.duplicateOf}
          label="Take back that import"
          onDone={() => void (controls ?? useImport.getState()).refresh()}
          // Then the preview offers to revive it: the next key is Import (Revive).
          focusAfter={['[data-testid="confirm-import"]:not([disabled])', 'main']}
        />
      ) : null}
      <Reading doc={doc} controls={controls} />
      <Revival doc={doc} />
      <PreviewTable lines={shown} />
      {doc.counts.total > shown.length ? (
        <button data-testid="preview-more" onClick={() => void showMore()}>
          Show {count(Math.min(MORE_LINES, doc.counts.total - shown.length))} more of its {count(doc.counts.total)}{' '}
          lines
        </button>
      ) : null}
    </div>
  );
}
