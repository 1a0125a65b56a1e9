import { useShallow } from 'zustand/react/shallow';
import type { CatalogueStatusView, ItemTypeCode } from '../../../src/api/contract.ts';
import { ITEM_TYPES } from '../../../src/vocabulary/item-types.ts';
import { FilePicker } from '../../components/FilePicker.tsx';
import { ProgressBar } from '../../components/ProgressBar.tsx';
import { count, when } from '../../format.ts';
import { loaderName } from '../../jobs-words.ts';
import { useCatalogue } from '../../state/catalogue.ts';

const TYPES = Object.entries(ITEM_TYPES) as [ItemTypeCode, string][];

/** What the catalogue holds: its size, the other numberings it translates, where its items came from. */
function CatalogueSize({ s }: { s: CatalogueStatusView | null }) {
  return (
    <>
      <p data-testid="catalogue-size">
        <b>{s ? count(s.items) : '…'}</b> items, <b>{s ? count(s.colours) : '…'}</b> colours,{' '}
        <b>{s ? count(s.categories) : '…'}</b> categories
      </p>
      {s && s.items > 0 && s.colours === 0 ? (
        <p className="warn" data-testid="colours-not-checked">
          Colours are not checked until BrickLink’s colours are loaded (its colours download, colors.txt): until then a
          line keeps the colour its document gives.
        </p>
      ) : null}
      {s && Object.values(s.translations).some((n) => n > 0) ? (
        <p data-testid="catalogue-translations">
          Other numberings: <b>{count(s.translations.elementIds)}</b> element ids,{' '}
          <b>{count(s.translations.colourTranslations)}</b> colour translations,{' '}
          <b>{count(s.translations.partTranslations)}</b> part translations,{' '}
          <b>{count(s.translations.relationships)}</b> relationships
        </p>
      ) : null}
      <ul className="sources">
        {s?.sources.map((x) => (
          <li key={x.source}>
            {x.source}: {count(x.items)}
          </li>
        ))}
      </ul>
    </>
  );
}

/** The catalogue (SPEC §9.5): its size and sources, and loading catalogue files, with progress, or Busy. */
export function CatalogueCard() {
  const c = useCatalogue(
    useShallow((s) => ({
      status: s.status,
      live: s.live,
      type: s.type,
      setType: s.setType,
      load: s.load,
      pickAndLoad: s.pickAndLoad,
      cancelLoad: s.cancelLoad,
    })),
  );
  const s = c.status;
  const job = s?.job ?? null;
  const running = job?.state === 'running' && job.alive;
  // Another desk's (or process's) load only: this desk's own is its own, whatever arrived first (issue 64 §2).
  const busyElsewhere = running && !job.ownedHere;
  return (
    <div className="card">
      <h3>Catalogue</h3>
      <CatalogueSize s={s} />
      <div className="row">
        <label>
          BrickLink's item lists (one kind of item a file) hold{' '}
          <select
            value={c.type ?? ''}
            onChange={(e) => c.setType(e.target.value === '' ? null : (e.target.value as ItemTypeCode))}
            aria-label="Kind of item in BrickLink item lists"
          >
            <option value="">what the file's name says (Parts.txt, Minifigures.txt…)</option>
            {TYPES.map(([code, name]) => (
              <option key={code} value={code}>
                {name}
              </option>
            ))}
          </select>
        </label>
      </div>
      <div className="row">
        <FilePicker
          label="Load catalogue files…"
          testId="catalogue-file"
          multiple
          disabled={running}
          onFiles={(files) => void c.load(files)}
        />
        {window.brickWork ? (
          <button onClick={() => void c.pickAndLoad()} disabled={running}>
            Open…
          </button>
        ) : null}
      </div>
      {c.live ? (
        <ProgressBar done={c.live.done} total={c.live.total} label="Loading the catalogue" unit="rows" />
      ) : running && !busyElsewhere ? (
        <ProgressBar done={job.progress.done} total={job.progress.total} label="Loading the catalogue" unit="rows" />
      ) : busyElsewhere ? (
        <ProgressBar
          done={job.progress.done}
          total={job.progress.total}
          label={`Loading on ${loaderName(job)}`}
          unit="rows"
        />
      ) : null}
      {running ? (
        <div className="row">
          {busyElsewhere ? (
            <p className="busy" role="status">
              {/* A desk by its name; on a file, the other process by its pid (SPEC §14). */}
              Busy: {loaderName(job)} is loading {job.files.join(', ') || 'a catalogue'} — {count(job.progress.done)}
              {job.progress.total ? ` of ${count(job.progress.total)}` : ''} rows. You can load yours when it has
              finished.
            </p>
          ) : null}
          <button onClick={() => void c.cancelLoad()}>Cancel the load</button>
        </div>
      ) : job ? (
        <p className="muted">
          Last load ({when(job.updatedAt)}): {job.files.join(', ') || job.kind} —{' '}
          {job.state === 'done' ? 'loaded' : job.state}
          {job.error ? `: ${job.error}` : ''}
        </p>
      ) : null}
      {s?.jobProblem ? (
        <p className="warn">catalogue-job.json could not be read ({s.jobProblem}); it is treated as no job.</p>
      ) : null}
    </div>
  );
}
