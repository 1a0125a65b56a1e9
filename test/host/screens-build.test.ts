import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/cli.ts';
import { tempDir } from '../helpers/temp.ts';

/** `npm run serve`'s first step, on a build folder of the test's own. */
function screens(outDir: string, ...more: string[]) {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/screens.ts', '--outDir', outDir, ...more], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
  });
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}

const stampOf = (dir: string) =>
  JSON.parse(fs.readFileSync(path.join(dir, '.built-from.json'), 'utf8')) as {
    builtAt: string;
    files: Record<string, string>;
  };

// Issue 64 §6: `npm run serve` builds the screens only when their sources changed since the last build.
it('npm run serve builds the screens once, and again only when a file they are made from changed', () => {
  const scripts = (
    JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    }
  ).scripts;
  expect(scripts['serve']).toMatch(/^node --import tsx scripts\/screens\.ts && /);

  const dir = path.join(tempDir(), 'renderer');
  const first = screens(dir);
  expect(first.out).toContain('Building the screens (no build of the screens here yet)');
  expect(first.status).toBe(0);
  // What the build was made from: the screens' own files and the shared code they bundle, the config, the lock.
  const stamp = stampOf(dir);
  expect(Object.keys(stamp.files)).toEqual(
    expect.arrayContaining(['renderer/main.tsx', 'vite.renderer.config.ts', 'package-lock.json']),
  );
  expect(Object.keys(stamp.files).some((f) => f.startsWith('src/'))).toBe(true);
  expect(Object.keys(stamp.files).some((f) => f.includes('node_modules'))).toBe(false);

  // The second start: nothing built, not a file touched.
  const index = path.join(dir, 'index.html');
  const before = fs.statSync(index).mtimeMs;
  const second = screens(dir);
  expect(second.out).toContain(`The screens are up to date (built ${stamp.builtAt}): not built again.`);
  expect(second.status).toBe(0);
  expect(fs.statSync(index).mtimeMs).toBe(before);
  expect(stampOf(dir)).toEqual(stamp);
  expect(screens(dir, '--check').status).toBe(0);

  // A source file changed since (its recorded hash no longer its own): said, and built again.
  fs.writeFileSync(
    path.join(dir, '.built-from.json'),
    JSON.stringify({ ...stamp, files: { ...stamp.files, 'renderer/main.tsx': 'an older file' } }),
  );
  const check = screens(dir, '--check');
  expect(check.status).toBe(1);
  expect(check.out).toContain('The screens need building: changed since the last build: renderer/main.tsx.');
  const again = screens(dir);
  expect(again.out).toContain('Building the screens (changed since the last build: renderer/main.tsx)');
  expect(stampOf(dir).files).toEqual(stamp.files);
  expect(screens(dir, '--check').status).toBe(0);

  // A folder whose build is gone (emptied by hand) is built again.
  fs.rmSync(index);
  expect(screens(dir, '--check').out).toContain('the build has no index.html');
});
