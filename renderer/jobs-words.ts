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

/** Who has a job, in words: this app, another brick-work, or a process that is gone. */
export function ownerWords(j: JobRowView): string {
  if (j.state === 'running') {
    if (j.owner === null || j.alive === false)
      return 'left running by a desk or process that is gone; it is taken up again by itself';
    if (j.ownedHere) return `running in this app since ${since(j.claimedAt)}`;
    return j.desk !== null
      ? `running in brick-work on ${j.desk} since ${since(j.claimedAt)}`
      : `running in another brick-work (process ${j.owner.pid}) since ${since(j.claimedAt)}`;
  }
  if (j.state === 'queued')
    return j.owner !== null && j.alive === false ? 'waiting; the process that ran it before is gone' : 'waiting';
  return '';
}
