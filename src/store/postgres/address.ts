/**
 * A shop server's address checked before any connection is tried (issue 45, point 5; issue 62 §3): a port
 * that is no port, an address that is no URL, a file the driver would read that is no small readable file,
 * an `sslmode` libpq does not know, a socket folder that is not there — each said as what to fix
 * (`invalid-argument`), or as no server there (`store-unreachable`), where the driver would throw from deep
 * inside, or read a device without end.
 */
import fs from 'node:fs';
import path from 'node:path';
import { BrickWorkError } from '../../vocabulary/errors.ts';

/** The address's parts as written, read without `URL` (whose one message is "Invalid URL"). */
const ADDRESS = /^postgres(?:ql)?:\/\/(?:[^@/?#]*@)?(\[[^\]]*\]|[^:/?#]*)(?::([^/?#]*))?(\/[^?#]*)?(\?[^#]*)?$/i;

/** The query parameters that name a file the driver reads as it connects. */
const FILE_PARAMETERS = ['sslcert', 'sslkey', 'sslrootcert'];

/** A certificate or key is a few kilobytes; a bundle of every public authority, some hundreds. */
export const MAX_ADDRESS_FILE_BYTES = 1024 * 1024;

/** libpq's `sslmode`s (https://www.postgresql.org/docs/current/libpq-ssl.html), no other. */
const SSL_MODES = ['disable', 'allow', 'prefer', 'require', 'verify-ca', 'verify-full'];

const shown = (text: string) => JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text);

function wrong(what: string): BrickWorkError {
  return new BrickWorkError(
    'invalid-argument',
    `The shop server's address can't be used: ${what}. Write it as postgres://user@host:port/database.`,
  );
}

function checkPort(port: string, where: string): void {
  const n = Number(port);
  if (!/^\d+$/.test(port) || n < 1 || n > 65535)
    throw wrong(`the port ${shown(port)}${where} is not a number from 1 to 65535`);
}

/** A file the driver would read whole: a regular file, readable, and small. */
function checkFile(name: string, file: string): void {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
    fs.accessSync(file, fs.constants.R_OK);
  } catch (e) {
    throw wrong(`its ${name} file ${file} can't be read (${(e as NodeJS.ErrnoException).code ?? 'unreadable'})`);
  }
  if (!stat.isFile()) throw wrong(`its ${name} ${file} is not a file (a certificate or key is one)`);
  if (stat.size > MAX_ADDRESS_FILE_BYTES)
    throw wrong(
      `its ${name} file ${file} is ${(stat.size / 1024 / 1024).toFixed(1)} MB, more than a certificate or key ` +
        `(${MAX_ADDRESS_FILE_BYTES / 1024 / 1024} MB at most)`,
    );
}

/** A `host` that is a folder: where the server's socket would be. No such folder is no server there. */
function checkSocketFolder(host: string): void {
  let folder = false;
  try {
    folder = fs.statSync(host).isDirectory();
  } catch {
    // said below
  }
  if (!folder)
    throw new BrickWorkError(
      'store-unreachable',
      `No shop server can answer there: the address's host ${path.normalize(host)} is a folder for a server's ` +
        'socket, and there is no such folder on this computer. Check the address, or that the server runs here.',
    );
}

export function checkServerAddress(url: string): void {
  const m = ADDRESS.exec(url);
  if (m === null) throw wrong('it is not an address brick-work can read');
  const [, , port, , query] = m;
  if (port !== undefined && port !== '') checkPort(port, '');
  try {
    new URL(url);
  } catch {
    throw wrong('it is not an address brick-work can read');
  }
  const params = new URLSearchParams(query?.slice(1) ?? '');
  const paramPort = params.get('port');
  if (paramPort !== null) checkPort(paramPort, ' (port=)');
  const mode = params.get('sslmode');
  if (mode !== null && !SSL_MODES.includes(mode))
    throw wrong(`its sslmode ${shown(mode)} is none of PostgreSQL's (${SSL_MODES.join(', ')})`);
  for (const name of FILE_PARAMETERS) {
    const file = params.get(name);
    if (file !== null) checkFile(name, file);
  }
  const host = params.get('host');
  if (host !== null && host.startsWith('/')) checkSocketFolder(host);
}

/** Whether a server address carries a password: in its user part, or as its `password` parameter. */
export function addressHoldsPassword(url: string): boolean {
  const m = ADDRESS.exec(url);
  const query = m?.[4];
  if (new URLSearchParams(query?.slice(1) ?? '').has('password')) return true;
  try {
    return new URL(url).password !== '';
  } catch {
    return false; // the open says what is wrong with the address
  }
}
