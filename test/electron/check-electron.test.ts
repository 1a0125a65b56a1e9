import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/cli.ts';

/** `npm start` and `npm run dist` begin with this check (package.json). */
function check(env: NodeJS.ProcessEnv) {
  return spawnSync(process.execPath, [path.join(REPO_ROOT, 'scripts', 'check-electron.mjs')], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env },
    encoding: 'utf8',
  });
}

describe('npm start without the Electron binary', () => {
  const binaryHere = (() => {
    const dir = path.join(REPO_ROOT, 'node_modules', 'electron');
    const pathFile = path.join(dir, 'path.txt');
    return fs.existsSync(pathFile) && fs.existsSync(path.join(dir, 'dist', fs.readFileSync(pathFile, 'utf8').trim()));
  })();

  it.skipIf(binaryHere)(
    'says so in its own plain words, with what to do, and no stack trace (this machine has no binary)',
    () => {
      const r = check({ ELECTRON_OVERRIDE_DIST_PATH: '' });
      expect(r.status).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(/^brick-work: the Electron binary is not installed/);
      expect(r.stderr).toContain('npm run serve');
      expect(r.stderr).not.toMatch(/\n\s+at |Error:|Downloading/);
    },
  );

  it('goes on when the binary is there', () => {
    expect(check({ ELECTRON_OVERRIDE_DIST_PATH: path.join(REPO_ROOT, 'node_modules', 'electron') }).status).toBe(0);
  });

  it('is the first thing npm start and npm run dist do', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    for (const s of ['start', 'dist', 'dist:mac'])
      expect(pkg.scripts[s]).toMatch(/^node scripts\/check-electron\.mjs && /);
  });
});
