import { spawn } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { cliScript, finished, REPO_ROOT } from './cli.ts';

/** `node --import` this, and the process prints its peak resident memory on stderr as it exits. */
export const PEAK_RSS = pathToFileURL(path.join(REPO_ROOT, 'test', 'workers', 'peak-rss.mjs')).href;
/** The memory bar of every refused input (issue 45, point 3), in kilobytes as `peakKbOf` gives them. */
export const MB200 = 200 * 1024;

/** The peak resident memory a child printed (`PEAK_RSS`), in kilobytes; NaN when it printed none. */
export function peakKbOf(stderr: string): number {
  return Number(/PEAK_RSS_KB (\d+)/.exec(stderr)?.[1] ?? NaN);
}

/** The CLI with `--json`, its answer and its peak resident memory (as `test/cli/too-big.test.ts` measures it). */
export async function cliMeasured(
  args: readonly string[],
): Promise<{ json: any; peakKb: number; code: number | null; ms: number }> {
  const started = performance.now();
  const child = spawn(process.execPath, ['--import', PEAK_RSS, cliScript(), '--json', ...args], {
    cwd: REPO_ROOT,
    env: { ...process.env, BRICK_WORK_DB: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const r = await finished(child);
  const ms = performance.now() - started;
  try {
    return { json: JSON.parse(r.stdout), peakKb: peakKbOf(r.stderr), code: r.code, ms };
  } catch {
    throw new Error(`not JSON (exit ${r.code}): ${r.stdout}\n${r.stderr}`);
  }
}
