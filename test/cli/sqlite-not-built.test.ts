import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { toErrorValue } from '../../src/store/errors.ts';
import { cli, cliJson } from '../helpers/cli.ts';
import { tempDir } from '../helpers/temp.ts';

const NOT_BUILT =
  'brick-work’s SQLite library (better-sqlite3) is not built for this Node.js (npm install --ignore-scripts ' +
  'skips building it). In the checkout, run  npm rebuild better-sqlite3  (or npm install without --ignore-scripts).';

/**
 * A checkout installed with `npm install --ignore-scripts`: better-sqlite3's binary was never built. Stood
 * in without touching node_modules: a preload makes better-sqlite3's `bindings` look for its binary in an
 * empty folder, so the real `bindings` throws what it throws then.
 */
function notBuilt(): NodeJS.ProcessEnv {
  const dir = tempDir();
  const empty = path.join(dir, 'better-sqlite3 never built');
  fs.mkdirSync(empty);
  const preload = path.join(dir, 'no-binary.cjs');
  fs.writeFileSync(
    preload,
    `const Module = require('node:module');
const load = Module._load;
Module._load = function (request, ...rest) {
  const real = load.call(this, request, ...rest);
  if (request !== 'bindings') return real;
  return (opts) => real({ ...(typeof opts === 'string' ? { bindings: opts } : opts), module_root: ${JSON.stringify(empty)} });
};
`,
  );
  return { NODE_OPTIONS: `--require ${JSON.stringify(preload)}` };
}

describe('better-sqlite3 not built (npm install --ignore-scripts): said, with what to run (issue 63 §2)', () => {
  it('bindings’ own error is said as what to do', () => {
    const bindings = createRequire(import.meta.url)('bindings') as (o: object) => unknown;
    let thrown: unknown = null;
    try {
      bindings({ bindings: 'better_sqlite3.node', module_root: tempDir() });
    } catch (e) {
      thrown = e;
    }
    expect(String((thrown as Error).message)).toMatch(/^Could not locate the bindings file\. Tried:/);
    expect(toErrorValue(thrown, '/shop/brick-work.sqlite')).toEqual({ code: 'internal', message: NOT_BUILT });
  });

  it('the CLI says it in one line, with no list of the places it looked and no stack', async () => {
    const file = path.join(tempDir(), 'brick-work.sqlite');
    const r = await cli(['store', 'upgrade', '--db', file], notBuilt());
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`brick-work: ${NOT_BUILT}\n`);
    const json = await cliJson(['store', 'upgrade', '--db', file], notBuilt());
    expect(json.json).toEqual({ error: { code: 'internal', message: NOT_BUILT } });
  });
});
