/**
 * What a PostgreSQL server's refusal means to staff (SPEC §10: no machine state is `internal`): the
 * server's own states — no such database, a login refused, no connection left, a read-only or standby
 * server, a role without its rights, a full disk, a step it stopped — each as its code, in words that say
 * what to check, with the server's own message quoted. Null for anything else: a refusal of our own SQL
 * is a bug, and stays one.
 */
import { BrickWorkError, quote, storeUnreachable } from '../../vocabulary/errors.ts';
import type { PasswordFrom } from './password.ts';

const SETTINGS = 'Settings → Shop server (or --db)';

/** Where the login's password came from (`password.ts`), when known. */
export interface PasswordTried {
  readonly from: PasswordFrom | null;
  readonly file: string;
}

/**
 * Where to look at the password of a login refused. Never `--db`, which takes no password; the file named as
 * libpq names it ("password retrieved from file").
 */
function passwordWords(tried: PasswordTried | undefined): string {
  switch (tried?.from) {
    case 'file':
      return `the password: it was read from ${tried.file}, as psql reads it`;
    case 'PGPASSWORD':
      return 'the password in PGPASSWORD';
    case 'address':
      return 'the password kept with the address (Settings → Shop server)';
    default:
      return 'the password (given in Settings → Shop server on the app, or in PGPASSWORD or ~/.pgpass for the command line)';
  }
}

export function serverRefusal(
  sqlstate: string | null,
  message: string,
  where: string,
  password?: PasswordTried,
): BrickWorkError | null {
  const said = quote(message);
  const server = `The shop's server (${where})`;
  switch (sqlstate) {
    case '3D000': // invalid_catalog_name
      return new BrickWorkError(
        'store-unreachable',
        `${server} has no such database (${said}). Nothing was changed; check the database's name in ${SETTINGS}.`,
      );
    case '28000': // invalid_authorization_specification
    case '28P01': // invalid_password
      return new BrickWorkError(
        'store-unreachable',
        `${server} refused this desk's login (${said}). Nothing was changed; check the user in the address, and ${passwordWords(password)}.`,
      );
    case '53300': // too_many_connections
    case '53400': // configuration_limit_exceeded
      return storeUnreachable(where, `the server has no connection left for this desk (${said})`);
    case '53100': // disk_full
      return new BrickWorkError(
        'disk-full',
        `${server} has no room left on its disk (${said}). Nothing was changed; ask whoever runs the server to free some space, then try again.`,
      );
    case '25006': // read_only_sql_transaction: a standby, or a database set read-only
      return new BrickWorkError(
        'read-only-store',
        `${server} takes no writes now (${said}): it may be a standby, or set read-only. Nothing was changed; you can still look and export. Ask whoever runs the server, then try again.`,
      );
    case '42501': // insufficient_privilege
      return new BrickWorkError(
        'read-only-store',
        `${server} does not let this desk's login do this (${said}). Nothing was changed; ask whoever runs the server to give brick-work's role its rights (see docs/several-desks.md), then try again.`,
      );
    case '53200': // out_of_memory
    case '57014': // query_canceled: a statement time limit, or the server's administrator
    case '40001': // serialization_failure
    case '40P01': // deadlock_detected
      return new BrickWorkError(
        'store-busy',
        `${server} stopped this step before it was done (${said}). Nothing was changed; try again in a moment.`,
      );
    default:
      return null;
  }
}
