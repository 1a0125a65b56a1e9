import type { CallName } from './contract.ts';
import { ITEM_TYPE_CODES } from '../item-types.ts';
import { COLOUR_NUMBERINGS, WARNING_CODES } from '../reading.ts';
import { SETTING_KEYS } from '../setting-keys.ts';
import { PLACEMENT_CONFIRMATIONS } from '../confirmations.ts';
import { CALL_NAMES } from './contract.ts';

/**
 * Arguments arrive from the renderer, which is untrusted: every call's arguments are checked here, in
 * the main process (and the browser host), before anything uses them. Unknown fields are refused too.
 */
type Check = (value: unknown, at: string, label?: FieldLabel) => string | null;

/** How a caller names the call's own fields in what it says (the CLI: `ORDER_ID`, `--step`); by default `the arguments.orderId`. */
export type FieldLabel = (field: string) => string | undefined;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const text =
  (max = 10_000): Check =>
  (v, at) =>
    typeof v === 'string' && v.length <= max ? null : `${at} must be text (up to ${max} characters)`;
const id: Check = (v, at) =>
  Number.isSafeInteger(v) && (v as number) > 0 ? null : `${at} must be a positive whole number`;
const count: Check = (v, at) =>
  Number.isSafeInteger(v) && (v as number) >= 0 && (v as number) <= 100_000 ? null : `${at} must be a whole number`;
const bool: Check = (v, at) => (typeof v === 'boolean' ? null : `${at} must be true or false`);
const oneOf =
  (...values: readonly string[]): Check =>
  (v, at) =>
    typeof v === 'string' && values.includes(v) ? null : `${at} must be one of ${values.join(', ')}`;
const nullable =
  (check: Check): Check =>
  (v, at) =>
    v === null ? null : check(v, at);
const optional = (check: Check): Check & { optional: true } =>
  Object.assign((v: unknown, at: string) => (v === undefined ? null : check(v, at)), { optional: true as const });

/** A file as `{name, content}`: a name (no path) and its bytes, within the size a document or catalogue can have. */
const fileArg: Check = (v, at) => {
  if (!isObject(v)) return `${at} must be a file ({name, content})`;
  const extra = Object.keys(v).filter((k) => k !== 'name' && k !== 'content');
  if (extra.length > 0) return `${at} has fields a file does not have: ${extra.join(', ')}`;
  if (typeof v['name'] !== 'string' || v['name'].length === 0 || v['name'].length > 255)
    return `${at}.name must be a file name`;
  if (!(v['content'] instanceof Uint8Array)) return `${at}.content must be the file's bytes`;
  if (v['content'].byteLength > 300 * 1024 * 1024) return `${at} is too big`;
  return null;
};

const arrayOf =
  (check: Check, max: number): Check =>
  (v, at) => {
    if (!Array.isArray(v) || v.length === 0 || v.length > max) return `${at} must be a list of 1 to ${max}`;
    for (const [i, x] of v.entries()) {
      const problem = check(x, `${at}[${i}]`);
      if (problem) return problem;
    }
    return null;
  };

const shape =
  (fields: Record<string, Check & { optional?: true }>): Check =>
  (v, at, label) => {
    if (!isObject(v)) return `${at} must be an object`;
    const extra = Object.keys(v).filter((k) => !Object.hasOwn(fields, k));
    if (extra.length > 0) return `${at} has unknown fields: ${extra.join(', ')}`;
    for (const [name, check] of Object.entries(fields)) {
      const where = label?.(name) ?? `${at}.${name}`;
      if (!Object.hasOwn(v, name) && !check.optional) return `${where} is missing`;
      const problem = check(Object.hasOwn(v, name) ? v[name] : undefined, where);
      if (problem) return problem;
    }
    return null;
  };

/** A list of codes from `codes`, each at most once in length (an empty list holds none). */
const codesOf =
  (codes: readonly string[], what: string): Check =>
  (v, at) => {
    if (!Array.isArray(v) || v.length > codes.length) return `${at} must be a list of ${what}`;
    for (const [i, x] of v.entries()) {
      const problem = oneOf(...codes)(x, `${at}[${i}]`);
      if (problem) return problem;
    }
    return null;
  };

/** Acknowledged warnings: each a warning code (an empty list acknowledges none). */
const warningCodes: Check = codesOf(WARNING_CODES, 'warning codes');

const none = shape({});
const importArgs = shape({
  file: fileArg,
  orderId: optional(nullable(id)),
  asNew: optional(bool),
  acknowledge: optional(warningCodes),
  colourNumbering: optional(nullable(oneOf(...COLOUR_NUMBERINGS))),
});

export const ARGUMENT_CHECKS: Readonly<Record<CallName, Check>> = {
  'store.info': none,
  'orders.list': shape({ query: optional(text(200)) }),
  'orders.get': shape({ orderId: id }),
  'lines.list': shape({ orderId: id, unplacedOnly: optional(bool) }),
  'lines.suggest': shape({ lineId: id, limit: optional(count) }),
  'lines.place': shape({
    lineId: id,
    type: text(2),
    no: text(100),
    colourId: nullable(count),
    confirm: optional(codesOf(PLACEMENT_CONFIRMATIONS, 'confirmations')),
  }),
  'catalogue.search': shape({ query: text(200), limit: optional(count), by: optional(oneOf('name', 'number')) }),
  'catalogue.status': none,
  'catalogue.colours': none,
  'catalogue.load': shape({
    files: arrayOf(fileArg, 20),
    type: optional(oneOf(...ITEM_TYPE_CODES)),
  }),
  'catalogue.cancel': none,
  'lookup.start': shape({ limit: optional(nullable(count)) }),
  'jobs.list': none,
  'jobs.cancel': shape({ jobId: id }),
  'import.preview': importArgs,
  'import.confirm': importArgs,
  'import.previewLines': shape({
    previewId: text(64),
    document: count,
    from: (v, at) =>
      Number.isSafeInteger(v) && (v as number) >= 0 && (v as number) <= 1_000_000 ? null : `${at} must be a line index`,
    count: (v, at) =>
      Number.isSafeInteger(v) && (v as number) >= 1 && (v as number) <= 5_000 ? null : `${at} must be 1 to 5,000`,
  }),
  'import.cancel': none,
  'documents.list': shape({ orderId: optional(id) }),
  'documents.takeBack': shape({ documentId: id, wholeFile: optional(bool) }),
  'history.state': none,
  'history.undo': shape({ expectedStep: id }),
  'history.redo': shape({ expectedStep: id }),
  'placements.list': none,
  'placements.forget': shape({ kind: oneOf('item', 'colour', 'name'), id }),
  'export.summary': none,
  'export.bricklink': shape({ orderId: id }),
  'settings.get': none,
  'settings.set': shape({ key: oneOf(...SETTING_KEYS), value: text(500) }),
  'settings.setCredentials': shape({
    consumerKey: text(200),
    consumerSecret: text(200),
    token: text(200),
    tokenSecret: text(200),
  }),
  'file.pick': shape({ purpose: oneOf('document', 'catalogue') }),
};

export function isCallName(name: unknown): name is CallName {
  return typeof name === 'string' && (CALL_NAMES as readonly string[]).includes(name);
}

/** Null when `args` fit the call, else what is wrong with them, in words (the fields named by `label`, where it names them). */
export function checkArguments(name: unknown, args: unknown, label?: FieldLabel): string | null {
  if (!isCallName(name)) return `there is no call named ${JSON.stringify(name)}`;
  return ARGUMENT_CHECKS[name](args === undefined ? {} : args, 'the arguments', label);
}
