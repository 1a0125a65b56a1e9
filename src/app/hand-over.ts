/**
 * Files a caller hands over with a call (SPEC §11): their memory goes to the thread that does the work
 * instead of being copied on the thread that answers the screens (tens of MB, tens of ms). Only what the
 * caller marks is handed over — the browser host's uploads, decoded for this one call — since a handed-over
 * array is empty for whoever still holds it.
 */
const given = new WeakSet<Uint8Array>();

/** Marks the byte arrays in `value` (a call's arguments) as the call's to hand over; gives `value` back. */
export function handOver<T>(value: T): T {
  const visit = (v: unknown): void => {
    if (v instanceof Uint8Array) given.add(v);
    else if (Array.isArray(v)) v.forEach(visit);
    else if (typeof v === 'object' && v !== null) Object.values(v).forEach(visit);
  };
  visit(value);
  return value;
}

/** The memory of the marked byte arrays in `value` that own it whole, for a `postMessage` transfer list. */
export function handedOver(value: unknown, found: ArrayBuffer[] = []): ArrayBuffer[] {
  if (value instanceof Uint8Array) {
    const b = value.buffer;
    if (given.has(value) && b instanceof ArrayBuffer && value.byteOffset === 0 && value.byteLength === b.byteLength)
      if (!found.includes(b)) found.push(b);
  } else if (Array.isArray(value)) for (const v of value) handedOver(v, found);
  else if (typeof value === 'object' && value !== null) for (const v of Object.values(value)) handedOver(v, found);
  return found;
}
