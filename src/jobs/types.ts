import type { OwnerIdentity } from '../identity/owner.ts';
import type { JobState } from '../store/jobs.ts';

// The states are the job table's (its CHECK), declared with it.
export { JOB_STATES, type JobState } from '../store/jobs.ts';

export interface JobProgress {
  readonly done: number;
  readonly total: number | null;
}

/** A job as the jobs list shows it. */
export interface JobView {
  readonly id: number;
  readonly kind: string;
  readonly state: JobState;
  readonly payload: unknown;
  readonly progress: JobProgress;
  readonly error: string | null;
  /** Not claimed before this UTC day (the BrickLink budget ran out). */
  readonly notBeforeDay: string | null;
  readonly owner: OwnerIdentity | null;
  /** The desk whose brick-work claimed it (SPEC §14); null for a claim made before desks were recorded. */
  readonly ownerDesk: string | null;
  /** When the owner claimed it. */
  readonly claimedAt: string | null;
  /** Whether the owner is alive; null when there is no owner. */
  readonly alive: boolean | null;
  /** How often the job was put back or taken over because its owner had died. */
  readonly recoveries: number;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly finishedAt: string | null;
}

/** A job this process has claimed and now owns. */
export interface ClaimedJob {
  readonly id: number;
  readonly kind: string;
  readonly payload: unknown;
  readonly progress: JobProgress;
  readonly owner: OwnerIdentity;
  /** The dead owner it was taken from, when it was `running`. */
  readonly takenFrom: OwnerIdentity | null;
  /** The desk that claimed it before, when it was taken from a dead owner and the desk was recorded. */
  readonly takenFromDesk?: string | null;
}
