/**
 * Where a store is (SPEC §2, §14): a SQLite file's path, or a PostgreSQL server's
 * `postgres://user@host:port/dbname`. Told apart by the scheme; named to staff without the password.
 */

/**
 * Whether an address names a server: for the words and views that say where the store is. What a store
 * does on either engine is decided inside src/store from the open store, never from its address (a lint
 * rule keeps this out of the core's folders below the API).
 */
export function isServerAddress(location: string): boolean {
  return /^postgres(ql)?:\/\//i.test(location);
}

/** `host:port/dbname` for a server, as staff would name it (never the user's password); a path as it is. */
export function storeName(location: string): string {
  if (!isServerAddress(location)) return location;
  try {
    const u = new URL(location);
    return `${u.hostname}${u.port ? `:${u.port}` : ''}${u.pathname}`;
  } catch {
    return 'the shop server';
  }
}

/** A shop server's address as `openStore` takes it, the password in it (name it with `storeName`). */
export function serverUrl(c: {
  readonly host: string;
  readonly port: number;
  readonly database: string;
  readonly user: string;
  readonly password: string;
}): string {
  const user = encodeURIComponent(c.user);
  const password = c.password === '' ? '' : `:${encodeURIComponent(c.password)}`;
  const host = c.host.includes(':') ? `[${c.host}]` : c.host;
  return `postgres://${user}${password}@${host}:${c.port}/${encodeURIComponent(c.database)}`;
}
