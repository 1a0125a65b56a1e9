import { useShallow } from 'zustand/react/shallow';
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
