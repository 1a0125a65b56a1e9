/**
 * A shop server's password found as libpq finds one (SPEC §14, issue 61 §5), so that a desk set up for psql
 * works alike: the address's own password (Settings puts it there); else `PGPASSWORD`; else the password
 * file (`PGPASSFILE`, or `~/.pgpass`). An empty one is none at all, and the file is read then (libpq's
 * connectOptions2). The file is ignored, with libpq's own warning, unless it is a plain file that only
 * its owner may read (passwordFromFile). Read when a connection is made, never stored.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { NO_PASSWORD } from './bridge-messages.ts';

/** What a connection is keyed by in the password file: as the driver resolved it. */
export interface PasswordKey {
  readonly host: string;
  readonly port: number;
  readonly database: string;
  readonly user: string;
}

export type PasswordFrom = 'address' | 'PGPASSWORD' | 'file';

export interface FoundPassword {
  /** Null: none anywhere (the server may not ask for one). */
  readonly password: string | null;
  readonly from: PasswordFrom | null;
  /** The password file looked in, or that would have been. */
  readonly file: string;
  /** Why the file was not read, in staff's words; null when it was, or was not there. */
  readonly ignored: string | null;
  /** libpq's warning for a file it ignores, as psql prints it; null for none. */
  readonly warning: string | null;
}

/** libpq's default host for a socket, and its name in the password file (`DefaultHost`). */
const DEFAULT_HOST = 'localhost';
const DEFAULT_PORT = 5432;

export function passwordFile(env: NodeJS.ProcessEnv): string {
  const named = env['PGPASSFILE'];
  if (named !== undefined && named !== '') return named;
  if (process.platform === 'win32') return path.join(env['APPDATA'] ?? os.homedir(), 'postgresql', 'pgpass.conf');
  const home = env['HOME'];
  return path.join(home !== undefined && home !== '' ? home : os.homedir(), '.pgpass');
}

export function findPassword(given: string, key: PasswordKey, env: NodeJS.ProcessEnv): FoundPassword {
  const file = passwordFile(env);
  const none = { file, ignored: null, warning: null };
  if (given !== '') return { ...none, password: given, from: 'address' };
  const fromEnv = env['PGPASSWORD'];
  if (fromEnv !== undefined && fromEnv !== '') return { ...none, password: fromEnv, from: 'PGPASSWORD' };
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
  } catch {
    return { ...none, password: null, from: null };
  }
  // On Windows the folder is the user's own: libpq checks nothing there.
  if (process.platform !== 'win32') {
    if (!stat.isFile())
      return {
        file,
        password: null,
        from: null,
        ignored: `${file} was not read: it is not a plain file`,
        warning: `WARNING: password file "${file}" is not a plain file`,
      };
    if ((stat.mode & 0o077) !== 0)
      return {
        file,
        password: null,
        from: null,
        ignored: `${file} was not read: others on this computer may read it (make it yours alone: chmod 600 ${file})`,
        warning: `WARNING: password file "${file}" has group or world access; permissions should be u=rw (0600) or less`,
      };
  }
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return { ...none, password: null, from: null };
  }
  const password = matchingLine(text, key);
  return { ...none, password, from: password === null ? null : 'file' };
}

/**
 * Gives a pg client made of `url` the password libpq would (its host, port, database and user resolved as pg
 * does, PG* variables included); none found: a refusal with `NO_PASSWORD`, met only if the server asks.
 * pg's own look-up (the pgpass package) is never used: it reads no file while PGPASSWORD is set, even empty.
 */
export function givePassword(url: string, c: Connection, env: NodeJS.ProcessEnv): FoundPassword {
  const found = findConnectionPassword(url, c, env);
  const none = () => Promise.reject(Object.assign(new Error('no password supplied'), { code: NO_PASSWORD }));
  // pg takes a function as the password, called when the server asks for one.
  (c as { password?: unknown }).password = found.password ?? none;
  return found;
}

interface Connection {
  readonly host: string;
  readonly port: number;
  readonly database?: string | undefined;
  readonly user?: string | undefined;
}

export function findConnectionPassword(url: string, c: Connection, env: NodeJS.ProcessEnv): FoundPassword {
  const address = new URL(url);
  const given = address.searchParams.get('password') ?? decodeURIComponent(address.password);
  return findPassword(given, { host: c.host, port: c.port, database: c.database ?? '', user: c.user ?? '' }, env);
}

/** The first line of the file for this key, as libpq matches it: `*` for any field, `\` escapes. */
function matchingLine(text: string, key: PasswordKey): string | null {
  const host = key.host === '' ? DEFAULT_HOST : key.host;
  const wanted = [host, String(key.port || DEFAULT_PORT), key.database, key.user];
  for (const raw of text.split('\n')) {
    const line = raw.replace(/\r$/, '');
    if (line.startsWith('#')) continue;
    const fields = splitFields(line);
    if (fields.length < 5) continue;
    if (wanted.every((w, i) => fields[i]?.any === true || fields[i]?.text === w)) {
      const password = fields[4]?.text ?? '';
      // An empty one is none either: libpq sends no empty password.
      return password === '' ? null : password;
    }
  }
  return null;
}

/** A line's fields split at unescaped `:` (`\:` and `\\` stand for themselves); `any`: a bare `*`. */
function splitFields(line: string): { text: string; any: boolean }[] {
  const fields: { text: string; any: boolean }[] = [];
  let text = '';
  let escaped = false;
  for (let i = 0; i < line.length; i += 1) {
    const c = line[i] as string;
    if (c === '\\' && i + 1 < line.length) {
      text += line[i + 1];
      escaped = true;
      i += 1;
    } else if (c === ':') {
      fields.push({ text, any: text === '*' && !escaped });
      text = '';
      escaped = false;
    } else text += c;
  }
  fields.push({ text, any: text === '*' && !escaped });
  return fields;
}
