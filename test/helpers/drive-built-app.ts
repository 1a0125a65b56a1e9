import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { REPO_ROOT } from './cli.ts';

/**
 * Runs a built main process (`built`: its dist/electron folder) under plain Node with the stand-in
 * `electron` (test/electron/built-app/drive.mjs): ready, the window, the preload's calls, a catalogue
 * load, ⌘Q. Gives the run and the report it printed (null when it printed none).
 */
export function driveBuiltApp(
  built: string,
  standIn: { readonly userData: string; readonly appPath: string; readonly packaged?: boolean },
  options: { readonly cwd: string; readonly timeoutMs: number },
): { run: ReturnType<typeof spawnSync>; report: any } {
  const here = path.join(REPO_ROOT, 'test', 'electron', 'built-app');
  const run = spawnSync(
    process.execPath,
    ['--import', pathToFileURL(path.join(here, 'register.mjs')).href, path.join(here, 'drive.mjs'), built],
    {
      cwd: options.cwd,
      env: { ...process.env, STAND_IN: JSON.stringify(standIn) },
      encoding: 'utf8',
      timeout: options.timeoutMs,
    },
  );
  const line = String(run.stdout)
    .split('\n')
    .find((l) => l.startsWith('REPORT '));
  return { run, report: line ? JSON.parse(line.slice('REPORT '.length)) : null };
}
