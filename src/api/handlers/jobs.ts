/** The jobs list and cancelling a job (SPEC §4). */
import { cancelJob, listJobs } from '../../jobs/queue.ts';
import { isSession, ownerPlace } from '../../store/owners.ts';
import { reads, writes, type PartialCallTable } from './define.ts';

export const JOBS_CALLS = {
  'jobs.list': reads((d) => () => {
    return listJobs(d.db).map((j) => {
      // Only a running job's live owner is anywhere (a queued one's is the runner that held it before).
      const place = j.state === 'running' && j.alive === true ? ownerPlace(d.db, j.owner) : { here: false, desk: null };
      // On a server the owner is a session, a number that means nothing to staff: the desk that claimed it
      // says who, alive or gone (SPEC §14). On a file it is a process of this computer, named by its number.
      const onServer = j.owner !== null && isSession(j.owner);
      return {
        id: j.id,
        kind: j.kind,
        state: j.state,
        progress: j.progress,
        error: j.error,
        notBeforeDay: j.notBeforeDay,
        owner: j.owner,
        alive: j.alive,
        ownedHere: place.here,
        desk: onServer ? (j.ownerDesk ?? place.desk) : null,
        claimedAt: j.claimedAt,
        recoveries: j.recoveries,
        updatedAt: j.updatedAt,
      };
    });
  }),
  'jobs.cancel': writes((d) => ({ jobId }) => {
    const { was } = cancelJob(d.db, jobId, { clock: d.clock });
    d.changed('job cancelled');
    return { cancelled: jobId, was };
  }),
} satisfies PartialCallTable;
