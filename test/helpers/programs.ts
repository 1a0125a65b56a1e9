import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/** Where Homebrew puts its programs (Apple Silicon, then Intel): a Mac's IDE may start tests without them on PATH. */
export const HOMEBREW_BINS: readonly string[] = ['/opt/homebrew/bin', '/usr/local/bin'];

/** The path of a program on the PATH or in Homebrew's folders, or null where it is not installed. */
export function findProgram(name: string, env: NodeJS.ProcessEnv = process.env): string | null {
  const dirs = [...(env['PATH'] ?? '').split(path.delimiter).filter((d) => d !== ''), ...HOMEBREW_BINS];
  for (const dir of dirs) {
    const file = path.join(dir, name);
    try {
      fs.accessSync(file, fs.constants.X_OK);
      if (fs.statSync(file).isFile()) return file;
    } catch {
      // not here
    }
  }
  return null;
}

/** What a test that moves the clock needs, in the words its skip prints. */
export const NEEDS_FAKETIME = 'faketime (Debian: apt-get install -y faketime; macOS: brew install libfaketime)';

/**
 * faketime (Debian's, or Homebrew's libfaketime) where it moves the clock of the program the tests run
 * under it, node; null where it is missing or does not. Checked on node itself: macOS's System Integrity
 * Protection strips the injected library from the system's own programs (`/usr/bin/true`), which then run
 * as if faketime worked.
 */
export function workingFaketime(program: string | null = findProgram('faketime')): string | null {
  if (program === null) return null;
  try {
    const said = execFileSync(
      program,
      ['-f', '+1d', process.execPath, '-e', 'process.stdout.write(String(Date.now()))'],
      {
        encoding: 'utf8',
        timeout: 30_000,
        stdio: ['ignore', 'pipe', 'ignore'],
      },
    );
    // A day ahead, give or take the time node takes to start.
    return Math.abs(Number(said) - Date.now() - 86_400_000) < 3_600_000 ? program : null;
  } catch {
    return null;
  }
}
