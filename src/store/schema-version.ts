/**
 * Schema versions are written "4.2" and kept in `PRAGMA user_version` as major × 100 + minor (SPEC §2).
 */
export interface SchemaVersion {
  readonly major: number;
  readonly minor: number;
}

export function toUserVersion(v: SchemaVersion): number {
  return v.major * 100 + v.minor;
}

export function fromUserVersion(n: number): SchemaVersion {
  return { major: Math.floor(n / 100), minor: n % 100 };
}

export function parseVersion(text: string): SchemaVersion {
  const m = /^(\d+)\.(\d+)$/.exec(text);
  if (!m) throw new Error(`not a schema version: ${text}`);
  const minor = Number(m[2]);
  if (minor > 99) throw new Error(`not a schema version: ${text}`);
  return { major: Number(m[1]), minor };
}

export function formatVersion(v: SchemaVersion): string {
  return `${v.major}.${v.minor}`;
}

export function compareVersions(a: SchemaVersion, b: SchemaVersion): number {
  return toUserVersion(a) - toUserVersion(b);
}
