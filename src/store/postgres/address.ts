/**
 * A shop server's address checked before any connection is tried (issue 45, point 5): a port that is no
 * port, an address that is no URL, a certificate file that is not there — each said as what to fix
 * (`invalid-argument`), where the driver would throw from deep inside.
 */
import fs from 'node:fs';
import { BrickWorkError } from '../../errors.ts';

/** The address's parts as written, read without `URL` (whose one message is "Invalid URL"). */
const ADDRESS = /^postgres(?:ql)?:\/\/(?:[^@/?#]*@)?(\[[^\]]*\]|[^:/?#]*)(?::([^/?#]*))?(\/[^?#]*)?(\?[^#]*)?$/i;

/** The query parameters that name a file the driver reads as it connects. */
const FILE_PARAMETERS = ['sslcert', 'sslkey', 'sslrootcert'];

export function checkServerAddress(url: string): void {
  const wrong = (what: string) =>
    new BrickWorkError(
      'invalid-argument',
      `The shop server's address can't be used: ${what}. Write it as postgres://user@host:port/database.`,
    );
  const m = ADDRESS.exec(url);
  if (m === null) throw wrong('it is not an address brick-work can read');
  const [, , port, , query] = m;
  if (port !== undefined && port !== '') {
    const n = Number(port);
    if (!/^\d+$/.test(port) || n < 1 || n > 65535)
      throw wrong(`the port "${port.slice(0, 20)}" is not a number from 1 to 65535`);
  }
  try {
    new URL(url);
  } catch {
    throw wrong('it is not an address brick-work can read');
  }
  const params = new URLSearchParams(query?.slice(1) ?? '');
  for (const name of FILE_PARAMETERS) {
    const file = params.get(name);
    if (file === null) continue;
    try {
      fs.accessSync(file, fs.constants.R_OK);
    } catch (e) {
      throw wrong(`its ${name} file ${file} can't be read (${(e as NodeJS.ErrnoException).code ?? 'unreadable'})`);
    }
  }
}
