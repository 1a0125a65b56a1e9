/**
 * Where a shell's store is (SPEC §2, §14): the CLI's and the browser host's `--db`, and the Electron app's
 * own file in its user-data folder. The shells name a place; only src/app/ and below open it.
 */
import path from 'node:path';
import { passwordOnCommandLine, resolveStorePath, STORE_FILE_NAME } from '../store/paths.ts';

/**
 * Anything thrown, as a shell shows it: the store says its own troubles (a store that can't be opened,
 * read-only, busy, damaged) in words, having read its engine's codes itself (`store/errors.ts`).
 */
export { toErrorValue } from '../store/errors.ts';

/** The store a command line chose, or why it can't be used. */
export type ChosenStore =
  { readonly ok: true; readonly path: string } | { readonly ok: false; readonly problem: string };

/**
 * The store `given` (a `--db`) names, else `BRICK_WORK_DB` of `env`, else the user-data folder's file — or
 * the reason a given server address can't be used: a password in it, which every user of the computer sees.
 */
export function storeFromOption(given: string | undefined, env: NodeJS.ProcessEnv): ChosenStore {
  const problem = given === undefined ? null : passwordOnCommandLine(given);
  return problem === null ? { ok: true, path: resolveStorePath(given, env) } : { ok: false, problem };
}

/** The store file an app keeps in `folder` (its user-data folder, the one the CLI finds too). */
export function storeFileIn(folder: string): string {
  return path.join(folder, STORE_FILE_NAME);
}
