/**
 * The contract's argument checks, as a small declarative schema: each check refuses a value in words and
 * carries the TypeScript type of what it lets through, so a call's arguments are declared once
 * (`arguments.ts`) and their type is read from the declaration (`Infer`). Arguments come from the
 * renderer, which is untrusted: own properties only, unknown fields refused.
 */

/** How a caller names the call's own fields in what it says (the CLI: `ORDER_ID`, `--step`); by default `the arguments.orderId`. */
export type FieldLabel = (field: string) => string | undefined;

/** Null when `value` is a `T`, else what is wrong with it, naming it `at`. */
export interface Check<T> {
  (value: unknown, at: string, label?: FieldLabel): string | null;
  /** The type it lets through (for the compiler only: never set). */
  readonly __type?: T;
  /** A field that may be left out of its object. */
  readonly optional?: true;
}

export type Infer<C> = C extends Check<infer T> ? T : never;

type Fields = Record<string, Check<unknown>>;
type Flat<T> = { [K in keyof T]: T[K] } & {};
/** An object of checked fields: the optional ones may be left out. */
export type ShapeOf<F extends Fields> = Flat<
  { readonly [K in keyof F as F[K] extends { optional: true } ? never : K]: Infer<F[K]> } & {
    readonly [K in keyof F as F[K] extends { optional: true } ? K : never]?: Infer<F[K]>;
  }
>;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export const text =
  (max = 10_000): Check<string> =>
  (v, at) =>
    typeof v === 'string' && v.length <= max ? null : `${at} must be text (up to ${max} characters)`;

/** A whole number in [min, max], said as `what` when it is not. */
export const whole =
  (min: number, max: number, what: string): Check<number> =>
  (v, at) =>
    Number.isSafeInteger(v) && (v as number) >= min && (v as number) <= max ? null : `${at} must be ${what}`;

export const id: Check<number> = whole(1, Number.MAX_SAFE_INTEGER, 'a positive whole number');
export const count: Check<number> = whole(0, 100_000, 'a whole number');
export const bool: Check<boolean> = (v, at) => (typeof v === 'boolean' ? null : `${at} must be true or false`);

export const oneOf =
  <const T extends readonly string[]>(...values: T): Check<T[number]> =>
  (v, at) =>
    typeof v === 'string' && values.includes(v) ? null : `${at} must be one of ${values.join(', ')}`;

export const nullable =
  <T>(check: Check<T>): Check<T | null> =>
  (v, at) =>
    v === null ? null : check(v, at);

export const optional = <T>(check: Check<T>): Check<T | undefined> & { readonly optional: true } =>
  Object.assign((v: unknown, at: string) => (v === undefined ? null : check(v, at)), { optional: true as const });

/** A list of 1 to `max` values, each passing `check`. */
export const arrayOf =
  <T>(check: Check<T>, max: number): Check<readonly T[]> =>
  (v, at) => {
    if (!Array.isArray(v) || v.length === 0 || v.length > max) return `${at} must be a list of 1 to ${max}`;
    for (const [i, x] of v.entries()) {
      const problem = check(x, `${at}[${i}]`);
      if (problem) return problem;
    }
    return null;
  };

/**
 * An object used as a map from ids to values (`{"12": "B-3"}`): at most `max` entries, each key a
 * positive whole number written plainly (said as `key`), each value passing `check`.
 */
export const recordOf =
  <T>(check: Check<T>, max: number, key: string): Check<Readonly<Record<string, T>>> =>
  (v, at) => {
    if (!isObject(v)) return `${at} must be an object`;
    const keys = Object.keys(v);
    if (keys.length > max) return `${at} must hold at most ${max} entries`;
    for (const k of keys) {
      if (!/^[1-9][0-9]{0,15}$/.test(k) || !Number.isSafeInteger(Number(k))) return `${at} has "${k}", not ${key}`;
      const problem = check(v[k], `${at}.${k}`);
      if (problem) return problem;
    }
    return null;
  };

/** A list of codes from `codes`, at most as many as there are (an empty list holds none). */
export const codesOf = <const T extends readonly string[]>(codes: T, what: string): Check<readonly T[number][]> => {
  const code = oneOf(...codes);
  return (v, at) => {
    if (!Array.isArray(v) || v.length > codes.length) return `${at} must be a list of ${what}`;
    for (const [i, x] of v.entries()) {
      const problem = code(x, `${at}[${i}]`);
      if (problem) return problem;
    }
    return null;
  };
};

/** An object with exactly these fields (own properties only; unknown ones refused). */
export const shape =
  <F extends Fields>(fields: F): Check<ShapeOf<F>> =>
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

/** One of several shapes, told apart by the text of their `field` (e.g. `kind`). */
export const variant =
  <const M extends Record<string, Check<unknown>>>(field: string, shapes: M): Check<Infer<M[keyof M]>> =>
  (v, at, label) => {
    if (!isObject(v)) return `${at} must be an object`;
    const tag = Object.hasOwn(v, field) ? v[field] : undefined;
    if (typeof tag !== 'string' || !Object.hasOwn(shapes, tag))
      return `${at}.${field} must be one of ${Object.keys(shapes).join(', ')}`;
    return (shapes[tag] as Check<unknown>)(v, at, label);
  };

/** A call that takes no arguments. */
export const none: Check<Record<string, never>> = shape({}) as Check<Record<string, never>>;

/** A file as `{name, content}`: a name (no path) and its bytes, within the size a document or catalogue can have. */
export const file: Check<{ readonly name: string; readonly content: Uint8Array }> = (v, at) => {
  if (!isObject(v)) return `${at} must be a file ({name, content})`;
  const extra = Object.keys(v).filter((k) => k !== 'name' && k !== 'content');
  if (extra.length > 0) return `${at} has fields a file does not have: ${extra.join(', ')}`;
  if (typeof v['name'] !== 'string' || v['name'].length === 0 || v['name'].length > 255)
    return `${at}.name must be a file name`;
  if (!(v['content'] instanceof Uint8Array)) return `${at}.content must be the file's bytes`;
  if (v['content'].byteLength > 300 * 1024 * 1024) return `${at} is too big`;
  return null;
};
