import type { ArgsOf, CallName, ErrorValue, ResultOf } from '../../src/api/contract.ts';
import { api } from '../bridge.ts';
import { readChosenFile } from '../off-thread.ts';

/** A refusal, as the screens show it: the code and the plain message, never a stack trace. */
export class Refusal extends Error {
  constructor(readonly error: ErrorValue) {
    super(error.message);
  }
}

/** The calls asked and not answered yet, by a number of their own; and who is told as each is answered. */
const inFlight = new Set<number>();
let nextCall = 1;
const settledListeners = new Set<(id: number) => void>();

/** The calls not answered yet (a write the core says waits is one of them). */
export function callsInFlight(): ReadonlySet<number> {
  return new Set(inFlight);
}

/** Tells `listener` of each call answered (or refused), by its number. */
export function onCallSettled(listener: (id: number) => void): void {
  settledListeners.add(listener);
}

/** The stores' one way to the core: a contract call that resolves to its value or throws a Refusal. */
export async function call<K extends CallName>(name: K, args: ArgsOf<K>): Promise<ResultOf<K>> {
  const id = nextCall++;
  inFlight.add(id);
  let result;
  try {
    result = await api.call(name, args);
  } finally {
    inFlight.delete(id);
    for (const l of settledListeners) l(id);
  }
  if (!result.ok) throw new Refusal(result.error);
  return result.value;
}

export function messageOf(e: unknown): ErrorValue {
  if (e instanceof Refusal) return e.error;
  return { code: 'internal', message: e instanceof Error ? e.message : String(e) };
}

/**
 * Reads a file the staff dropped or picked, as the contract wants it: `{name, content}`, off the page's
 * thread (issue 47, point 6); a call that carries its bytes sends the file itself (`off-thread.ts`).
 */
export async function fileArg(file: File): Promise<{ name: string; content: Uint8Array }> {
  return { name: file.name, content: await readChosenFile(file) };
}
