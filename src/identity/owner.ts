import { bootSessionReader } from './boot-session.ts';
import { procView, type ProcView } from './proc.ts';

/** Who owns a job (SPEC §3, ADR 0023). */
export interface OwnerIdentity {
  readonly pid: number;
  /**
   * The kernel's boot id; where /proc can't answer, `'pid-only:<the boot's id>'` where the system names
   * its boot without a clock (macOS), else `'pid-only'`; null in rows written before 4.2.
   */
  readonly bootId: string | null;
  /** Field 22 of /proc/<pid>/stat; null where /proc can't answer and before 4.2. */
  readonly startTicks: number | null;
}

export const PID_ONLY = 'pid-only';
const PID_ONLY_BOOT = `${PID_ONLY}:`;

/**
 * The real /proc and, where there is none, the boot's id from the system (macOS); pass `procView(root)`
 * to look elsewhere (tests), `procView(null)` for none.
 */
export const SYSTEM_PROC: ProcView = procView('/proc', bootSessionReader());

/** The boot's id a pid-only owner records: the system's clock-free one, else /proc's (hidepid). */
function pidOnlyBoot(proc: ProcView): string | null {
  return proc.bootSession() ?? proc.bootId();
}

/** The identity of process `pid` (this one by default), as an owner row stores it. */
export function identityOf(pid: number = process.pid, proc: ProcView = SYSTEM_PROC): OwnerIdentity {
  const bootId = proc.bootId();
  const stat = bootId === null ? null : proc.stat(pid);
  if (bootId !== null && stat !== null) return { pid, bootId, startTicks: stat.startTicks };
  const boot = pidOnlyBoot(proc);
  return { pid, bootId: boot === null ? PID_ONLY : `${PID_ONLY_BOOT}${boot}`, startTicks: null };
}

/** Whether two owners are the same one: every part equal, exactly (SPEC §3). */
export function sameOwner(a: OwnerIdentity, b: OwnerIdentity): boolean {
  return a.pid === b.pid && a.bootId === b.bootId && a.startTicks === b.startTicks;
}

/** `kill(pid, 0)`: ESRCH means gone; EPERM means it exists under another user. A pid ≤ 0 is never alive. */
export function pidExists(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Whether the owner is alive, by the rule of SPEC §3. No clock takes part: the answer depends only on
 * the process table, /proc, and the stored values, compared exactly.
 */
export function isAlive(owner: OwnerIdentity, proc: ProcView = SYSTEM_PROC): boolean {
  // Written before 4.2, so before the restart that ran the upgrade.
  if (owner.bootId === null) return false;
  if (!pidExists(owner.pid)) return false;
  if (owner.bootId === PID_ONLY) return true;
  if (owner.bootId.startsWith(PID_ONLY_BOOT)) {
    // Written where only the pid and the boot could be told: another boot means the pid was reused.
    const bootNow = pidOnlyBoot(proc);
    return bootNow === null || `${PID_ONLY_BOOT}${bootNow}` === owner.bootId;
  }

  // From here the owner was written where /proc answers. If it can't answer now, only the pid is checked.
  const bootNow = proc.bootId();
  if (bootNow === null) return true;
  if (bootNow !== owner.bootId) return false;
  const stat = proc.stat(owner.pid);
  if (stat === null) return pidExists(owner.pid); // stat hidden (hidepid), or it just ended: the pid decides
  if (stat.state === 'Z' || stat.state === 'X') return false; // a zombie can do no more work
  const tgid = proc.tgid(owner.pid);
  if (tgid !== null && tgid !== owner.pid) return false; // a thread is not a process
  return owner.startTicks !== null && stat.startTicks === owner.startTicks;
}
