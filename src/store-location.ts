/**
 * Where a store is (SPEC §2, §14): a SQLite file's path, or a PostgreSQL server's
 * `postgres://user@host:port/dbname`. Told apart by the scheme; named to staff without the password.
 */

export function isServerStore(location: string): boolean {
  return /^postgres(ql)?:\/\//i.test(location);
}

/** `host:port/dbname` for a server, as staff would name it (never the user's password); a path as it is. */
export function storeName(location: string): string {
  if (!isServerStore(location)) return location;
  try {
    const u = new URL(location);
    return `${u.hostname}${u.port ? `:${u.port}` : ''}${u.pathname}`;
  } catch {
    return 'the shop server';
  }
}
