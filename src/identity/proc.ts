import fs from 'node:fs';
import path from 'node:path';
import { parseStat, parseTgid, type ProcStat } from './stat.ts';

/**
 * Read access to `/proc`, rooted where the caller says: tests point it at a folder of their own (or at
 * nothing) to see both the Linux and the pid-only behaviour on one machine.
 */
export interface ProcView {
  /** `/proc/sys/kernel/random/boot_id`, or null where there is no /proc (macOS, Windows). */
  bootId(): string | null;
  /** The stat line of a pid, or null when it can't be read (gone, or hidden by hidepid). */
  stat(pid: number): ProcStat | null;
  /** The thread-group id of a pid (≠ pid for a thread), or null when unknown. */
  tgid(pid: number): number | null;
  /** The boot's id from a source other than /proc that needs no clock (macOS), or null. */
  bootSession(): string | null;
}

function readText(file: string): string | null {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

/** `/proc` at `root` (null: none, as on macOS and Windows), and where that has none, `bootSession`. */
export function procView(root: string | null = '/proc', bootSession: () => string | null = () => null): ProcView {
  if (root === null) return { bootId: () => null, stat: () => null, tgid: () => null, bootSession };
  return {
    bootSession,
    bootId() {
      const id = readText(path.join(root, 'sys', 'kernel', 'random', 'boot_id'))?.trim();
      return id ? id : null;
    },
    stat(pid) {
      const line = readText(path.join(root, String(pid), 'stat'));
      return line === null ? null : parseStat(line);
    },
    tgid(pid) {
      const status = readText(path.join(root, String(pid), 'status'));
      return status === null ? null : parseTgid(status);
    },
  };
}
