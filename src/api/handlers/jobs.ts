/** The jobs list and cancelling a job (SPEC §4). */
import { identityOf } from '../../identity/owner.ts';
import { cancelJob, listJobs } from '../../jobs/queue.ts';
import { reads, writes, type PartialCallTable } from './define.ts';

export const JOBS_CALLS = {
  'jobs.list': reads((d) => () => {
    const me = identityOf();
    const isMe = (o: { pid: number; bootId: string | null; startTicks: number | null } | null) =>
      o !== null && o.pid === me.pid && o.bootId === me.bootId && o.startTicks === me.startTicks;
    return listJobs(d.db).map((j) => ({
      id: j.id,
      kind: j.kind,
      state: j.state,
      progress: j.progress,
      error: j.error,
      notBeforeDay: j.notBeforeDay,
      owner: j.owner,
      alive: j.alive,
      ownedHere: isMe(j.owner),
      claimedAt: j.claimedAt,
      recoveries: j.recoveries,
      updatedAt: j.updatedAt,
    }));
  }),
  'jobs.cancel': writes((d) => ({ jobId }) => {
    const { was } = cancelJob(d.db, jobId, { clock: d.clock });
    d.changed('job cancelled');
    return { cancelled: jobId, was };
  }),
} satisfies PartialCallTable;
