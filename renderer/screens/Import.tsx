import { useShallow } from 'zustand/react/shallow';
import type { ImportPreviewView } from '../../src/api/contract.ts';
import { count, plural } from '../format.ts';
import { useImport } from '../state/import.ts';
import { DocumentPreview } from './import/DocumentPreview.tsx';
import { DropZone } from './import/DropZone.tsx';
import { ImportProgress } from './import/ImportProgress.tsx';
import { TargetBar } from './import/TargetBar.tsx';

/** Import (SPEC §9.1): a file in, its preview with its target and warnings, then Import (or Revive). */
export function Import() {
  const { preview, busy } = useImport(useShallow((s) => ({ preview: s.preview, busy: s.busy })));
  // Unacknowledged warnings are said beside each warning, with its box; any other refusal here.
  const refusal = preview?.refusal?.code === 'needs-acknowledgement' ? null : (preview?.refusal ?? null);
  const bulk = (preview?.documents.length ?? 0) > 1;
  return (
    <section className="screen" aria-label="Import">
      <div className="toolbar">
        <h2>Import</h2>
      </div>
      <DropZone />
      {busy ? <ImportProgress /> : null}
      {preview ? (
        <>
          <TargetBar preview={preview} />
          {preview.documents.length > 1 ? <BulkSummary preview={preview} /> : null}
          {/* A refusal of the file, or of several of its documents at once, is said once, here. */}
          {refusal && (preview.documents.length === 0 || bulk) ? (
            <p className="refusal" role="alert" data-testid="preview-refusal">
              {refusal.message}
            </p>
          ) : null}
          {preview.documents.map((d, i) => (
            <DocumentPreview
              key={`${preview.previewId}:${d.key}`}
              doc={d}
              previewId={preview.previewId}
              index={i}
              refusalSaid={bulk && d.refusal?.code === refusal?.code}
            />
          ))}
        </>
      ) : null}
    </section>
  );
}

/** How many orders that need work a bulk preview names at its top. */
const NAMED = 10;

/**
 * A file of many orders starts with what it holds in all and the orders that need work (unplaced lines, a
 * refusal, a warning), not with the first of its sections (issue 64 §3).
 */
function BulkSummary({ preview }: { preview: ImportPreviewView }) {
  const docs = preview.documents;
  const sum = (f: (d: (typeof docs)[number]) => number) => docs.reduce((n, d) => n + f(d), 0);
  // A refusal said above for the whole file is no work of one document's.
  const own = (d: (typeof docs)[number]) => d.refusal !== null && d.refusal.code !== preview.refusal?.code;
  const needWork = docs.filter((d) => d.counts.unplaced > 0 || own(d) || d.warnings.length > 0);
  const name = (d: (typeof docs)[number]) => d.header.reference ?? d.key;
  return (
    <div className="card bulk-summary" data-testid="bulk-summary">
      <p>
        <b>{plural(docs.length, 'document')}</b>:{' '}
        {plural(
          sum((d) => d.counts.total),
          'line',
        )}
        , {count(sum((d) => d.counts.placed))} placed,{' '}
        <b className={sum((d) => d.counts.unplaced) > 0 ? 'warn' : ''}>
          {count(sum((d) => d.counts.unplaced))} unplaced
        </b>
        .
      </p>
      {needWork.length === 0 ? (
        <p className="muted">Every line of every document is placed.</p>
      ) : (
        <p data-testid="bulk-need-work">
          Need work:{' '}
          {needWork
            .slice(0, NAMED)
            .map((d) => `${name(d)} (${workOf(d, own(d))})`)
            .join(', ')}
          {needWork.length > NAMED ? `, and ${count(needWork.length - NAMED)} more` : ''}.
        </p>
      )}
    </div>
  );
}

/** What a document of a bulk preview needs, in a few words. */
function workOf(d: ImportPreviewView['documents'][number], refused: boolean): string {
  if (refused && d.refusal !== null) return d.refusal.code.replace(/-/g, ' ');
  const parts = [
    d.counts.unplaced > 0 ? `${count(d.counts.unplaced)} unplaced` : '',
    d.warnings.length > 0 ? plural(d.warnings.length, 'warning') : '',
  ];
  return parts.filter(Boolean).join(', ');
}
