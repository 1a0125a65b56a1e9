import { useShallow } from 'zustand/react/shallow';
import { ProgressBar } from '../../components/ProgressBar.tsx';
import { count } from '../../format.ts';
import { loaderName, ownerWords } from '../../jobs-words.ts';
import { useCatalogue } from '../../state/catalogue.ts';

const KINDS: Record<string, string> = { 'catalogue-lookup': 'BrickLink look-up' };

/** The jobs list (SPEC §9.5): each job's state and progress, who runs it and whether that process lives. */
export function JobsTable() {
  const c = useCatalogue(
    useShallow((s) => ({
      jobs: s.jobs,
      cancelJob: s.cancelJob,
      status: s.status,
      live: s.live,
      cancelLoad: s.cancelLoad,
    })),
  );
  // The catalogue load is a job too while it runs (issue 47): staff look for it here.
  const load = c.status?.job?.state === 'running' && c.status.job.alive ? c.status.job : null;
  const progress = c.live ?? load?.progress ?? null;
  return (
    <>
      <h3>Jobs</h3>
      {load !== null ? (
        <table className="table" aria-label="The catalogue load" data-testid="catalogue-load-job">
          <tbody>
            <tr>
              <td>Catalogue load</td>
              <td>running</td>
              <td>
                {progress?.total ? (
                  <ProgressBar done={progress.done} total={progress.total} label="" unit="rows" />
                ) : (
                  count(progress?.done ?? 0)
                )}
              </td>
              <td>{c.live !== null ? 'running in this app' : `running on ${loaderName(load)}`}</td>
              <td>{load.files.join(', ')}</td>
              <td>
                <button onClick={() => void c.cancelLoad()}>Cancel</button>
              </td>
            </tr>
          </tbody>
        </table>
      ) : null}
      {c.jobs.length === 0 ? (
        load === null ? (
          <p className="empty">No jobs yet.</p>
        ) : null
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
                    j.recoveries
                      ? `taken up again after the desk or process running it stopped (${j.recoveries}×)`
                      : '',
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
    </>
  );
}
