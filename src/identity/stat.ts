/** The fields of `/proc/<pid>/stat` that ownership needs. */
export interface ProcStat {
  readonly pid: number;
  readonly comm: string;
  /** R, S, D, Z (zombie), X (dead), T, t, I, … */
  readonly state: string;
  /** Field 22: start time in clock ticks since boot. */
  readonly startTicks: number;
}

/**
 * Parses one `/proc/<pid>/stat` line. The command name (field 2) is in parentheses and may itself hold
 * spaces and parentheses, so the fields are read after the **last** `)`.
 */
export function parseStat(line: string): ProcStat | null {
  const open = line.indexOf('(');
  const close = line.lastIndexOf(')');
  if (open < 0 || close < open) return null;
  const pid = Number(line.slice(0, open).trim());
  // After ") " come fields 3, 4, …: field n is at index n - 3.
  const rest = line
    .slice(close + 1)
    .trim()
    .split(/\s+/);
  const state = rest[0];
  const startTicks = Number(rest[22 - 3]);
  if (!Number.isInteger(pid) || state === undefined || !Number.isSafeInteger(startTicks)) return null;
  return { pid, comm: line.slice(open + 1, close), state, startTicks };
}

/** The `Tgid:` line of `/proc/<pid>/status`: the process a thread belongs to. */
export function parseTgid(status: string): number | null {
  const m = /^Tgid:\s*(\d+)\s*$/m.exec(status);
  return m ? Number(m[1]) : null;
}
