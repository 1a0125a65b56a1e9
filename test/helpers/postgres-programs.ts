/**
 * PostgreSQL's programs (initdb, pg_ctl, postgres, psql, pg_dump…) as the tests, the soak and the bench run
 * them: every one from the same folder, found one way (issue 63). Homebrew's `postgresql@N` is keg-only and
 * links none of its programs onto the PATH, and Debian puts only wrappers of the client programs there, so a
 * bare `psql` is not to be counted on.
 */
import fs from 'node:fs';
import path from 'node:path';
import { NEEDS_POSTGRES } from './needs.ts';

/** The programs a folder must hold to be PostgreSQL's: the server's and the client's. */
const SERVER_AND_CLIENT = ['initdb', 'pg_ctl', 'postgres', 'psql'] as const;

/** The programs the tests, the soak and the bench run (a name not here is a typo). */
export type PostgresProgram = (typeof SERVER_AND_CLIENT)[number] | 'pg_dump' | 'pg_restore' | 'pg_isready';

/** Where PostgreSQL is installed apart from the PATH. */
export interface PostgresPlaces {
  /** Homebrew's `opt` folders (Apple silicon's, Intel's), holding `postgresql@N/bin`. */
  readonly homebrewOpts: readonly string[];
  /** Debian's folders of versions, holding `N/bin`. */
  readonly versioned: readonly string[];
}

export const POSTGRES_PLACES: PostgresPlaces = {
  homebrewOpts: ['/opt/homebrew/opt', '/usr/local/opt'],
  versioned: ['/usr/lib/postgresql'],
};

function executable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

function holdsPostgres(dir: string): boolean {
  return SERVER_AND_CLIENT.every((name) => executable(path.join(dir, name)));
}

/** `<root>/<prefix>N/bin` holding PostgreSQL, the newest N first. */
function versions(root: string, prefix: string): string[] {
  let names: string[];
  try {
    names = fs.readdirSync(root);
  } catch {
    return [];
  }
  return names
    .filter((n) => n.startsWith(prefix) && /^\d+(\.\d+)?$/.test(n.slice(prefix.length)))
    .sort((a, b) => Number(b.slice(prefix.length)) - Number(a.slice(prefix.length)))
    .map((n) => path.join(root, n, 'bin'))
    .filter(holdsPostgres);
}

/**
 * The folder of PostgreSQL's programs: the first folder on the PATH that holds them all (a developer's
 * choice: Postgres.app, a linked keg, Fedora's /usr/bin), else Homebrew's newest `postgresql@N` — under
 * `HOMEBREW_PREFIX` (`brew shellenv` sets it), then /opt/homebrew, /usr/local — else Debian's newest
 * `/usr/lib/postgresql/N`. Null where there is none.
 */
export function postgresBinDir(env: NodeJS.ProcessEnv = process.env, places = POSTGRES_PLACES): string | null {
  for (const dir of (env['PATH'] ?? '').split(path.delimiter))
    if (dir !== '' && path.isAbsolute(dir) && holdsPostgres(dir)) return dir;
  const prefix = env['HOMEBREW_PREFIX'];
  const opts = [...(prefix ? [path.join(prefix, 'opt')] : []), ...places.homebrewOpts];
  for (const opt of opts) {
    const found = versions(opt, 'postgresql@')[0];
    if (found !== undefined) return found;
  }
  for (const root of places.versioned) {
    const found = versions(root, '')[0];
    if (found !== undefined) return found;
  }
  return null;
}

/** The path of one of PostgreSQL's programs, from `postgresBinDir`; an error naming how to install it where there is none. */
export function postgresProgram(
  name: PostgresProgram,
  env: NodeJS.ProcessEnv = process.env,
  places = POSTGRES_PLACES,
): string {
  const dir = postgresBinDir(env, places);
  if (dir === null) throw new Error(`PostgreSQL is not installed: ${NEEDS_POSTGRES}`);
  return path.join(dir, name);
}
