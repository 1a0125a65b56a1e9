import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import path from 'node:path';
import { onTestFinished } from 'vitest';
import { REPO_ROOT } from './cli.ts';

/** Starts `test/workers/NAME.ts` in a real child process (through tsx); killed when the test ends. */
export function spawnWorker(name: string, args: readonly string[], options: SpawnOptions = {}): ChildProcess {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(REPO_ROOT, 'test', 'workers', `${name}.ts`), ...args],
    {
      cwd: REPO_ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      ...options,
    },
  );
  onTestFinished(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  return child;
}

/** Everything a child prints on stdout, as it comes, and a way to wait for a line. */
export function lines(child: ChildProcess): {
  all: string[];
  waitFor(re: RegExp, timeoutMs?: number): Promise<string>;
} {
  const all: string[] = [];
  let buffer = '';
  let stderr = '';
  const waiters: { re: RegExp; resolve: (l: string) => void }[] = [];
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  child.stdout?.on('data', (d: Buffer) => {
    buffer += d.toString();
    let nl;
    while ((nl = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      all.push(line);
      for (const w of [...waiters]) {
        if (w.re.test(line)) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(line);
        }
      }
    }
  });
  return {
    all,
    waitFor(re, timeoutMs = 20_000) {
      const seen = all.find((l) => re.test(l));
      if (seen !== undefined) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () =>
            reject(
              new Error(`no line matching ${re} within ${timeoutMs} ms; stdout: ${all.join('\n')}; stderr: ${stderr}`),
            ),
          timeoutMs,
        );
        const onExit = () => {
          clearTimeout(timer);
          reject(new Error(`the child exited before printing ${re}; stdout: ${all.join('\n')}; stderr: ${stderr}`));
        };
        child.once('exit', onExit);
        waiters.push({
          re,
          resolve: (l) => {
            clearTimeout(timer);
            child.off('exit', onExit);
            resolve(l);
          },
        });
      });
    },
  };
}

export function exited(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  if (child.exitCode !== null || child.signalCode !== null) {
    return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  }
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
}
