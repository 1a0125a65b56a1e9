import { useShallow } from 'zustand/react/shallow';
import { ProgressBar } from '../../components/ProgressBar.tsx';
import { useImport } from '../../state/import.ts';

/** The preview or import under way, by phase, with Cancel until it writes (a big file takes seconds). */
export function ImportProgress() {
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
