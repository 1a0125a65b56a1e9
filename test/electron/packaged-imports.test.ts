import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { builtinModules } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from 'vite';
import { SHIPPED } from '../../electron/vite.config.ts';
import { REPO_ROOT } from '../helpers/cli.ts';

/**
 * Issue 44, point 2: the package's `files` hold no node_modules but better-sqlite3 (and Electron is the
 * runtime), so every other module the built main, preload and threads import must be inside the bundle.
 * The real Electron build (electron/vite.config.ts) is made into a folder outside the checkout, with only
 * the shipped packages stood in beside it, and its chunks are loaded from there.
 */
describe('the packaged app finds every module it imports', () => {
  let out: string;
  beforeAll(async () => {
    out = fs.mkdtempSync(path.join(os.tmpdir(), 'brick-work-packaged-'));
    await build({
      configFile: path.join(REPO_ROOT, 'electron', 'vite.config.ts'),
      logLevel: 'error',
      build: { outDir: path.join(out, 'dist', 'electron'), emptyOutDir: true },
    });
  }, 120_000);
  afterAll(() => fs.rmSync(out, { recursive: true, force: true }));

  const files = () =>
    fs
      .readdirSync(path.join(out, 'dist', 'electron'), { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.js'))
      .map((f) => path.join(out, 'dist', 'electron', f));

  it('imports nothing but Node’s own modules and what the package ships (electron, better-sqlite3)', () => {
    const builtins = new Set([...builtinModules, ...builtinModules.map((m) => `node:${m}`)]);
    const outside = new Set<string>();
    for (const file of files()) {
      const text = fs.readFileSync(file, 'utf8');
      for (const m of text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*)["']([^"'./][^"']*)["']/g)) {
        const name = m[1] ?? '';
        if (builtins.has(name) || (SHIPPED as readonly string[]).includes(name)) continue;
        // pg's optional native client, required only when `pg.native` is read (never, here); tsx, in the
        // text of a worker that only a checkout's `.ts` thread starts (src/platform/worker-start.ts).
        if (name === 'pg-native' || name === 'tsx/esm/api') continue;
        outside.add(`${name} (${path.basename(file)})`);
      }
    }
    expect([...outside]).toEqual([]);
    expect(files().map((f) => path.basename(f))).toEqual(
      expect.arrayContaining([
        'main.js',
        'runner-thread.js',
        'service-thread.js',
        'postgres-bridge-thread.js',
        'pictures-thread.js',
      ]),
    );
  });

  it('loads each shared chunk from outside the checkout, pg included, with only the shipped packages beside it', () => {
    // Stand-ins for what the package ships: resolvable, and nothing else is.
    for (const name of SHIPPED) {
      const dir = path.join(out, 'node_modules', name);
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name, main: 'index.js' }));
      fs.writeFileSync(path.join(dir, 'index.js'), 'module.exports = function StandIn() {};');
    }
    const chunks = files().filter((f) => f.includes(`${path.sep}assets${path.sep}`));
    expect(chunks.length).toBeGreaterThan(0);
    const script = `for (const f of ${JSON.stringify(chunks)}) await import(f); console.log('loaded');`;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: out, encoding: 'utf8' });
    expect(r.stderr).not.toMatch(/ERR_MODULE_NOT_FOUND|Cannot find (package|module)/);
    expect(r.stdout.trim(), r.stderr).toBe('loaded');
    // The shop server's driver is among them.
    expect(chunks.some((f) => fs.readFileSync(f, 'utf8').includes('pg-connection-string'))).toBe(true);
  });
});
