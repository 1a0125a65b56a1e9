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
