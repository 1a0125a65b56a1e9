import { FilePicker } from '../components/FilePicker.tsx';
import { useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { ItemTypeCode } from '../../src/api/contract.ts';
import { ITEM_TYPES } from '../../src/item-types.ts';
import { ProgressBar } from '../components/ProgressBar.tsx';
import { count, when } from '../format.ts';
import { ownerWords } from '../jobs-words.ts';
import { useCatalogue } from '../state/catalogue.ts';
import { useReloadOnChange } from '../hooks/reload-on-change.ts';

const KINDS: Record<string, string> = { 'catalogue-lookup': 'BrickLink look-up' };

const TYPES = Object.entries(ITEM_TYPES) as [ItemTypeCode, string][];

export function Catalogue() {
  const c = useCatalogue(
    useShallow((s) => ({
      status: s.status,
      jobs: s.jobs,
      live: s.live,
      type: s.type,
      reload: s.reload,
      setType: s.setType,
      load: s.load,
      pickAndLoad: s.pickAndLoad,
      cancelLoad: s.cancelLoad,
      lookup: s.lookup,
      cancelJob: s.cancelJob,
    })),
  );
  const [limit, setLimit] = useState('');
  const reload = c.reload;
  useReloadOnChange(reload);
  const s = c.status;
  const job = s?.job ?? null;
  const running = job?.state === 'running' && job.alive;
  const busyElsewhere = running && c.live === null;

  return (
    <section className="screen" aria-label="Catalogue and jobs">
      <div className="toolbar">
        <h2>Catalogue and jobs</h2>
      </div>
      <div className="cards">
        <div className="card">
          <h3>Catalogue</h3>
          <p data-testid="catalogue-size">
            <b>{s ? count(s.items) : '…'}</b> items, <b>{s ? count(s.colours) : '…'}</b> colours,{' '}
            <b>{s ? count(s.categories) : '…'}</b> categories
          </p>
          {s && s.items > 0 && s.colours === 0 ? (
            <p className="warn" data-testid="colours-not-checked">
              Colours are not checked until BrickLink’s colours are loaded (its colours download, colors.txt): until
              then a line keeps the colour its document gives.
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
          <div className="row">
            <label>
              Items in tab-delimited BrickLink files are{' '}
              <select value={c.type} onChange={(e) => c.setType(e.target.value as ItemTypeCode)} aria-label="Item type">
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
          ) : null}
          {running ? (
            <div className="row">
              {busyElsewhere ? (
                <p className="busy" role="status">
                  Busy: another brick-work (process {job.owner.pid}) is loading {job.files.join(', ') || 'a catalogue'}{' '}
                  — {count(job.progress.done)}
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
        <div className="card">
          <h3>BrickLink look-up</h3>
          <p>
            Asks BrickLink for the numbers that unplaced lines name and the catalogue lacks; each number is asked once.
          </p>
          <p data-testid="budget">
            Today ({s?.budget.day ?? '…'}, UTC): <b>{s ? count(s.budget.used) : '…'}</b> calls used,{' '}
            <b>{s ? count(s.budget.left) : '…'}</b> left of {s ? count(s.budget.limit) : '…'}.
          </p>
          <div className="row">
            <label>
              At most{' '}
              <input
                className="short"
                inputMode="numeric"
                value={limit}
                placeholder="all"
                onChange={(e) => setLimit(e.target.value.replace(/\D/g, ''))}
                aria-label="Call limit"
              />{' '}
              calls
            </label>
            <button onClick={() => void c.lookup(limit ? Number(limit) : null)}>Look up missing numbers</button>
          </div>
        </div>
      </div>
      <h3>Jobs</h3>
      {c.jobs.length === 0 ? (
        <p className="empty">No jobs yet.</p>
      ) : (
        <table className="table" aria-label="Jobs">
          <thead>
            <tr>
              <th>#</th>
              <th>Kind</th>
              <th>State</th>
              <th>Progress</th>
              <th>Run by</th>
              <th>Notes</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {c.jobs.map((j) => (
              <tr key={j.id}>
                <td>{j.id}</td>
                <td>{KINDS[j.kind] ?? j.kind}</td>
                <td>{j.state}</td>
                <td>
                  {j.progress.total ? (
                    <ProgressBar done={j.progress.done} total={j.progress.total} label="" />
                  ) : j.progress.done ? (
                    count(j.progress.done)
                  ) : (
                    ''
                  )}
                </td>
                <td data-testid="job-owner">{ownerWords(j)}</td>
                <td>
                  {[
                    j.recoveries ? `taken up again after its process died (${j.recoveries}×)` : '',
                    j.notBeforeDay ? `waits for ${j.notBeforeDay} (UTC)` : '',
                    j.error ?? '',
                  ]
                    .filter(Boolean)
                    .join('; ')}
                </td>
                <td>
                  {j.state === 'queued' || j.state === 'running' ? (
                    <button onClick={() => void c.cancelJob(j.id)}>Cancel</button>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
