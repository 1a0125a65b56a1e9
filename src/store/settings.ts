import type { ReadableDb, StoreDb } from './db.ts';
import { BrickWorkError, quote } from '../vocabulary/errors.ts';
import type { SettingKey } from '../vocabulary/setting-keys.ts';

/**
 * The settings kept in the store (table `setting`), each with its default and its check. Staff see and
 * change them in Settings and with `brick-work settings KEY VALUE`.
 */
export const SETTINGS = {
  'daily-call-limit': {
    default: '5000',
    parse(value: string): string {
      if (!/^\d{1,9}$/.test(value.trim()))
        throw new BrickWorkError(
          'invalid-argument',
          `The daily call limit must be a whole number, not "${quote(value)}".`,
        );
      return String(Number(value.trim()));
    },
  },
  currency: {
    default: 'USD',
    parse(value: string): string {
      const code = value.trim().toUpperCase();
      if (!/^[A-Z]{3}$/.test(code))
        throw new BrickWorkError(
          'invalid-argument',
          `A currency is a three-letter code such as EUR or USD, not "${quote(value)}".`,
        );
      return code;
    },
  },
  'api-url': {
    default: 'https://api.bricklink.com/api/store/v1',
    parse: (value: string) => httpUrl(value, 'The API URL'),
  },
  // The numbering the shop sells in (SPEC §5): screens show an item's number in it first.
  numbering: {
    default: 'bricklink',
    parse(value: string): string {
      const numbering = value.trim().toLowerCase();
      if (numbering !== 'bricklink' && numbering !== 'rebrickable')
        throw new BrickWorkError(
          'invalid-argument',
          `The shop numbering is bricklink or rebrickable, not "${quote(value)}".`,
        );
      return numbering;
    },
  },
  // Pictures (SPEC §15): a metered connection turns them off; the cache's age and cap; the servers' bases.
  pictures: { default: 'on', parse: (value: string) => onOrOff(value, 'Pictures are') },
  'row-pictures': { default: 'on', parse: (value: string) => onOrOff(value, 'Pictures on the lines are') },
  'picture-days': {
    default: '90',
    parse: (value: string) => wholeIn(value, 1, 3650, 'The days a picture is kept'),
  },
  'picture-cache-mb': {
    default: '500',
    parse: (value: string) => wholeIn(value, 10, 100_000, 'The picture cache'),
  },
  'picture-url': {
    default: 'https://img.bricklink.com',
    parse: (value: string) => httpUrl(value, "BrickLink's picture server"),
  },
  'render-url': {
    default: 'https://cdn.rebrickable.com',
    parse: (value: string) => httpUrl(value, "Rebrickable's picture server"),
  },
} as const satisfies Record<SettingKey, unknown>;

function onOrOff(value: string, what: string): string {
  const v = value.trim().toLowerCase();
  if (v !== 'on' && v !== 'off')
    throw new BrickWorkError('invalid-argument', `${what} on or off, not "${quote(value)}".`);
  return v;
}

function wholeIn(value: string, min: number, max: number, what: string): string {
  const n = Number(value.trim());
  if (!/^\d{1,9}$/.test(value.trim()) || n < min || n > max)
    throw new BrickWorkError(
      'invalid-argument',
      `${what} is a whole number from ${min} to ${max}, not "${quote(value)}".`,
    );
  return String(n);
}

/** A server's address: http(s) only (http for a local stand-in), kept without its last slash. */
function httpUrl(value: string, what: string): string {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    throw new BrickWorkError('invalid-argument', `"${quote(value)}" is not a URL.`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new BrickWorkError(
      'invalid-argument',
      `${what} must start with https:// (or http:// for a local stand-in), not "${quote(value)}".`,
    );
  return url.toString().replace(/\/$/, '');
}

export type { SettingKey };

export function isSettingKey(key: string): key is SettingKey {
  return Object.hasOwn(SETTINGS, key);
}

export function getSetting(db: ReadableDb, key: SettingKey): string {
  const stored = db.prepare('SELECT value FROM setting WHERE key = ?').pluck().get(key) as string | undefined;
  return stored ?? SETTINGS[key].default;
}

export function setSetting(db: StoreDb, key: SettingKey, value: string): string {
  const parsed = SETTINGS[key].parse(value);
  db.prepare(
    'INSERT INTO setting (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
  ).run(key, parsed);
  return parsed;
}

export function allSettings(db: StoreDb): Record<SettingKey, string> {
  const out = {} as Record<SettingKey, string>;
  for (const key of Object.keys(SETTINGS) as SettingKey[]) out[key] = getSetting(db, key);
  return out;
}

/** The catalogue's generation as an SQL expression, for a statement that records it as it writes. */
export const CATALOGUE_GENERATION_SQL =
  "coalesce((SELECT CAST(value AS INTEGER) FROM setting WHERE key = 'catalogue.generation'), 0)";

/**
 * A number that changes whenever the catalogue does, in the same transaction: caches built from the
 * catalogue (the suggestion index) compare it to know they are stale, in any process.
 */
export function catalogueGeneration(db: StoreDb): number {
  return Number(db.prepare(`SELECT ${CATALOGUE_GENERATION_SQL}`).pluck().get());
}

export function bumpCatalogueGeneration(db: StoreDb): void {
  db.prepare(
    `INSERT INTO setting (key, value) VALUES ('catalogue.generation', '1')
     ON CONFLICT (key) DO UPDATE SET value = CAST(setting.value AS INTEGER) + 1`,
  ).run();
}
