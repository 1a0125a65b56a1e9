import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from './helpers/cli.ts';
import { NEEDS_POSTGRES } from './helpers/needs.ts';
import { POSTGRES_PLACES, postgresBinDir, postgresProgram } from './helpers/postgres-programs.ts';
import { tempDir } from './helpers/temp.ts';

/** A folder holding stand-ins of PostgreSQL's programs (`names`), executable. */
function programs(dir: string, names = ['initdb', 'pg_ctl', 'postgres', 'psql', 'pg_dump']): string {
  fs.mkdirSync(dir, { recursive: true });
  for (const name of names) fs.writeFileSync(path.join(dir, name), '#!/bin/sh\n', { mode: 0o755 });
  return dir;
}

const NOWHERE = { homebrewOpts: [], versioned: [] };

// Issue 63 §1: Homebrew's postgresql@17 is keg-only, so on a Mac no psql is on the PATH; the tests, the
// soak and the bench find every PostgreSQL program the one way initdb was found.
describe('where the tests find PostgreSQL’s programs', () => {
  it('a PATH without psql: in Homebrew’s keg (…/opt/postgresql@N/bin), the newest, psql beside initdb', () => {
    const root = tempDir();
    const opt = path.join(root, 'opt');
    programs(path.join(opt, 'postgresql@9', 'bin'));
    const keg = programs(path.join(opt, 'postgresql@17', 'bin'));
    programs(path.join(opt, 'postgresql@18', 'bin'), ['psql']); // a client alone is not a server's folder
    const env = { PATH: ['/nowhere', path.join(root, 'bin')].join(path.delimiter) };
    const places = { homebrewOpts: [opt], versioned: [] };
    expect(postgresBinDir(env, places)).toBe(keg);
    for (const name of ['psql', 'pg_ctl', 'initdb', 'postgres', 'pg_dump'] as const)
      expect(postgresProgram(name, env, places)).toBe(path.join(keg, name));
  });

  it('under HOMEBREW_PREFIX (brew shellenv), before the usual prefixes', () => {
    const prefix = tempDir();
    const keg = programs(path.join(prefix, 'opt', 'postgresql@17', 'bin'));
    const other = tempDir();
    programs(path.join(other, 'postgresql@17', 'bin'));
    expect(
      postgresBinDir({ PATH: '/nowhere', HOMEBREW_PREFIX: prefix }, { homebrewOpts: [other], versioned: [] }),
    ).toBe(keg);
  });

  it('a bare psql on the PATH (Debian’s wrapper) is not the server’s folder; Debian’s newest version is', () => {
    const root = tempDir();
    const wrapper = programs(path.join(root, 'usr', 'bin'), ['psql']);
    const versioned = path.join(root, 'usr', 'lib', 'postgresql');
    programs(path.join(versioned, '9.6', 'bin'));
    const newest = programs(path.join(versioned, '17', 'bin'));
    expect(postgresBinDir({ PATH: wrapper }, { homebrewOpts: [], versioned: [versioned] })).toBe(newest);
  });

  it('a folder on the PATH that holds them all comes first (the developer’s choice), its psql with it', () => {
    const chosen = programs(path.join(tempDir(), 'bin'));
    const opt = tempDir();
    programs(path.join(opt, 'postgresql@17', 'bin'));
    const env = { PATH: `relative${path.delimiter}${chosen}` };
    expect(postgresBinDir(env, { homebrewOpts: [opt], versioned: [] })).toBe(chosen);
    expect(postgresProgram('psql', env, NOWHERE)).toBe(path.join(chosen, 'psql'));
  });

  it('files that are not executable are no programs; none found: null, and the error says how to install it', () => {
    const dir = path.join(tempDir(), 'bin');
    programs(dir);
    fs.chmodSync(path.join(dir, 'psql'), 0o644);
    expect(postgresBinDir({ PATH: dir }, NOWHERE)).toBeNull();
    expect(() => postgresProgram('psql', { PATH: dir }, NOWHERE)).toThrow(NEEDS_POSTGRES);
    expect(POSTGRES_PLACES).toEqual({
      homebrewOpts: ['/opt/homebrew/opt', '/usr/local/opt'],
      versioned: ['/usr/lib/postgresql'],
    });
  });

  it('no test, soak or bench runs a PostgreSQL program by its bare name', () => {
    const PROGRAM = String.raw`(?:psql|pg_ctl|initdb|postgres|pg_dump|pg_restore|pg_isready|createdb|dropdb)`;
    // A call given the program by its bare name, or a shell line that starts it by that name.
    const call = new RegExp(
      String.raw`\b(?:spawn|spawnSync|execFile|execFileSync|exec|execSync)\(\s*['"\`]${PROGRAM}['"\`]`,
    );
    const shell = new RegExp(String.raw`(?:^|[;&|]\s*|\bsh -c\s+['"]?)${PROGRAM}\s+-`, 'm');
    const bare: string[] = [];
    const walk = (dir: string): string[] =>
      fs
        .readdirSync(dir, { withFileTypes: true })
        .flatMap((e) =>
          e.isDirectory()
            ? walk(path.join(dir, e.name))
            : /\.(ts|mjs|js)$/.test(e.name)
              ? [path.join(dir, e.name)]
              : [],
        );
    for (const folder of ['test', 'bench', 'scripts', 'tools'])
      for (const file of walk(path.join(REPO_ROOT, folder))) {
        const text = fs.readFileSync(file, 'utf8');
        if (call.test(text) || shell.test(text)) bare.push(path.relative(REPO_ROOT, file));
      }
    expect(bare).toEqual([]);
    // The check itself sees the shapes it looks for.
    expect(call.test(['execFileSync(', "    'psql',"].join('\n'))).toBe(true);
    expect(shell.test(['`sleep 0.5;', 'psql -h 127.0.0.1`'].join(' '))).toBe(true);
  });
});
