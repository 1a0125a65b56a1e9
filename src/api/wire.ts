/**
 * JSON for the browser host's wire: the contract's values as they are, except bytes (files), which
 * travel as `{"$bytes": "<base64>"}`. Used by both ends, so it is plain web JavaScript.
 */
function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

function fromBase64(text: string): Uint8Array {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

export function encodeWire(value: unknown): string {
  // A replacer makes JSON.stringify call back for every value, twice as slow on an order's lines: only
  // a value that holds bytes (an export, an upload) takes that path.
  if (!holdsBytes(value)) return JSON.stringify(value);
  return JSON.stringify(value, (_key, v: unknown) => (v instanceof Uint8Array ? { $bytes: toBase64(v) } : v));
}

/** Whether bytes are anywhere in `v` that JSON.stringify would reach (arrays and plain objects' fields). */
export function holdsBytes(v: unknown): boolean {
  if (typeof v !== 'object' || v === null) return false;
  if (v instanceof Uint8Array) return true;
  if (Array.isArray(v)) {
    for (const x of v) if (holdsBytes(x)) return true;
    return false;
  }
  // A toJSON of its own decides what is written: the replacer's path, which calls it first.
  if (typeof (v as { toJSON?: unknown }).toJSON === 'function') return true;
  for (const k in v) if (holdsBytes((v as Record<string, unknown>)[k])) return true;
  return false;
}

/**
 * The value `text` holds. With `nullPrototype` (the host, reading what a page sent) every object comes
 * without a prototype, so nothing that reads it can meet a name every object has (`constructor`,
 * `toString`, `__proto__`): its names are its own fields and nothing else (SPEC §11).
 */
export function decodeWire(
  text: string,
  options: {
    readonly nullPrototype?: boolean;
    /** Bytes from base64 (the host's thread uses Node's, many times faster than the web's `atob`). */
    readonly bytes?: (base64: string) => Uint8Array;
  } = {},
): unknown {
  if (nestedDeeperThan(text, MAX_WIRE_DEPTH)) throw new TooDeep();
  const bytes = options.bytes ?? fromBase64;
  return JSON.parse(text, (_key, v: unknown) => {
    if (typeof v === 'object' && v !== null && !Array.isArray(v)) {
      const o = v as Record<string, unknown>;
      const keys = Object.keys(o);
      if (keys.length === 1 && keys[0] === '$bytes' && typeof o['$bytes'] === 'string') return bytes(o['$bytes']);
      // JSON.parse made this object just now and keeps every field as an own property (`"__proto__"` too).
      if (options.nullPrototype) Object.setPrototypeOf(o, null);
    }
    return v;
  });
}

/** No call's arguments nest anywhere near this; JSON.parse's reviver would run out of stack far deeper. */
export const MAX_WIRE_DEPTH = 64;

/** A request nested deeper than any call: said as that, not as "not valid JSON" (issue 45). */
export class TooDeep extends Error {
  constructor() {
    super(`the request is nested more than ${MAX_WIRE_DEPTH} levels deep, deeper than any call brick-work takes`);
  }
}

/** Whether JSON text nests arrays and objects deeper than `limit`, read once, strings skipped. */
function nestedDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // a backslash: the next character is escaped
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > limit) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}
