import { spawn } from 'node:child_process';
import path from 'node:path';
import { REPO_ROOT } from './cli.ts';
import { lines } from './workers.ts';

export interface VersionProxy {
  readonly port: number;
  close(): Promise<void>;
}

/**
 * A proxy in front of the real server on `target` that says another version: each value in `replace`
 * (a row's or a parameter's) is given as the value it maps to (`test/workers/pg-version-proxy.ts`).
 */
export async function versionProxy(target: number, replace: ReadonlyMap<string, string>): Promise<VersionProxy> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      path.join(REPO_ROOT, 'test', 'workers', 'pg-version-proxy.ts'),
      String(target),
      JSON.stringify([...replace]),
    ],
    { cwd: REPO_ROOT, stdio: ['pipe', 'pipe', 'inherit'] },
  );
  const port = Number((await lines(child).waitFor(/^port \d+$/)).slice('port '.length));
  return {
    port,
    close: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.stdin?.end();
      await exited;
    },
  };
}
