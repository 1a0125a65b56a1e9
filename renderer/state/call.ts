import type { ArgsOf, CallName, ErrorValue, ResultOf } from '../../src/api/contract.ts';
import { api } from '../bridge.ts';

/** A refusal, as the screens show it: the code and the plain message, never a stack trace. */
export class Refusal extends Error {
  constructor(readonly error: ErrorValue) {
    super(error.message);
  }
}

/** The stores' one way to the core: a contract call that resolves to its value or throws a Refusal. */
export async function call<K extends CallName>(name: K, args: ArgsOf<K>): Promise<ResultOf<K>> {
  const result = await api.call(name, args);
  if (!result.ok) throw new Refusal(result.error);
  return result.value;
}

export function messageOf(e: unknown): ErrorValue {
  if (e instanceof Refusal) return e.error;
  return { code: 'internal', message: e instanceof Error ? e.message : String(e) };
}

/**
 * Reads a file the staff dropped or picked, as the contract wants it: `{name, content}`. In pieces, as a
 * stream: one `arrayBuffer()` of a file of megabytes held the page's thread while it was copied in, and
 * keys pressed then waited (issue 47, point 6).
 */
export async function fileArg(file: File): Promise<{ name: string; content: Uint8Array }> {
  const content = new Uint8Array(file.size);
  let at = 0;
  const reader = file.stream().getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (at + value.length > content.length)
      return { name: file.name, content: new Uint8Array(await file.arrayBuffer()) };
    content.set(value, at);
    at += value.length;
  }
  return { name: file.name, content: at === content.length ? content : content.slice(0, at) };
}
