/**
 * Arguments arrive from the renderer, which is untrusted: every call's arguments are checked here, in
 * the main process (and the browser host), before anything uses them, by the checks each call declares
 * (`arguments.ts`). Unknown fields are refused too.
 */
import { CALL_ARGUMENTS, CALL_NAMES, type CallName } from './arguments.ts';
import type { FieldLabel } from './schema.ts';

export type { FieldLabel };

export function isCallName(name: unknown): name is CallName {
  return typeof name === 'string' && (CALL_NAMES as readonly string[]).includes(name);
}

/** Null when `args` fit the call, else what is wrong with them, in words (the fields named by `label`, where it names them). */
export function checkArguments(name: unknown, args: unknown, label?: FieldLabel): string | null {
  if (!isCallName(name)) return `there is no call named ${JSON.stringify(name)}`;
  return CALL_ARGUMENTS[name](args === undefined ? {} : args, 'the arguments', label);
}
