import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { builtForRun } from './built.ts';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** The command as a checkout has it: the TypeScript sources through tsx. */
export const SOURCE_BIN = path.join(REPO_ROOT, 'bin', 'brick-work.js');

/** The CLI a test starts: the run's bundle of the sources (test/setup/global.ts), else `bin/` itself. */
export function cliScript(): string {
  return builtForRun()?.cli ?? SOURCE_BIN;
}

export interface CliResult {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Starts the real CLI (`bin/brick-work.js`) in a child process. */
export function spawnCli(args: readonly string[], env: NodeJS.ProcessEnv = {}): ChildProcess {
  return spawn(process.execPath, [cliScript(), ...args], {
    cwd: REPO_ROOT,
    env: { ...process.env, BRICK_WORK_DB: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

export function finished(child: ChildProcess): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

export function cli(args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<CliResult> {
  return finished(spawnCli(args, env));
}

/** Runs the CLI with `--json` and parses its one JSON document. */
export async function cliJson(
  args: readonly string[],
  env: NodeJS.ProcessEnv = {},
): Promise<CliResult & { json: any }> {
  const r = await cli(['--json', ...args], env);
  let json: unknown;
  try {
    json = JSON.parse(r.stdout);
  } catch {
    throw new Error(`stdout is not one JSON document (exit ${r.code}):\n${r.stdout}\nstderr:\n${r.stderr}`);
  }
  return { ...r, json };
}
