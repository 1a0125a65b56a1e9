import type { JobRowView } from '../src/api/contract.ts';
import { when } from './format.ts';

/** A time today as 12:03; another day with its date. */
export function since(iso: string | null): string {
  if (iso === null) return '';
  const d = new Date(iso);
  return d.toDateString() === new Date().toDateString()
    ? d.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' })
    : when(iso);
}

/** Who runs another desk's or process's catalogue load: the desk by its name, on a file the process by its pid. */
export function loaderName(job: { readonly desk: string | null; readonly owner: { readonly pid: number } }): string {
  return job.desk !== null ? `the desk "${job.desk}"` : `another brick-work (process ${job.owner.pid})`;
}

/** Who has a job, in words: this app, another desk or brick-work, or one that is gone. */
export function ownerWords(j: JobRowView): string {
  const who = j.desk !== null ? `the desk "${j.desk}"` : null;
  if (j.state === 'running') {
    if (j.owner === null || j.alive === false)
      return `left running by ${who !== null ? `${who}, whose brick-work stopped` : 'a desk or process that is gone'}; ${takenUpBy(j.kind)}`;
    if (j.ownedHere) return `running in this app since ${since(j.claimedAt)}`;
    return who !== null
      ? `running on ${who} since ${since(j.claimedAt)}`
      : `running in another brick-work (process ${j.owner.pid}) since ${since(j.claimedAt)}`;
  }
  if (j.state === 'queued')
    return j.owner !== null && j.alive === false
      ? `waiting; ${who !== null ? `${who} ran it before and stopped` : 'the process that ran it before is gone'}`
      : 'waiting';
  return '';
}

/**
 * Who takes up a job whose owner is gone: any desk's runner; a look-up only one that has BrickLink's
 * credentials (a desk without never claims it), within seconds of seeing the owner gone.
 */
function takenUpBy(kind: string): string {
  return kind === LOOKUP_KIND ? 'it waits for a desk with BrickLink credentials' : 'it is taken up again by itself';
}

/** The look-up job's kind (`src/catalogue/lookup-job.ts`), which the screens may not import. */
const LOOKUP_KIND = 'catalogue-lookup';
