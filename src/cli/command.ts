import type { ParseArgsConfig } from 'node:util';
import type { Store } from '../store/open.ts';

export type OptionsConfig = NonNullable<ParseArgsConfig['options']>;
export type OptionValues = Record<string, string | boolean | (string | boolean)[] | undefined>;

export interface CliIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly env: NodeJS.ProcessEnv;
}

export interface CommandContext {
  readonly storePath: string;
  readonly json: boolean;
  readonly io: CliIo;
  /**
   * Opens the store: read-only for commands that only read (they never upgrade it), read-write for
   * the rest (which upgrades an older store, and says where the backup went).
   */
  openStore(mode: 'read' | 'write'): Promise<Store>;
  /** Opens the store as `openStore` does, runs `fn`, and closes it whatever happens. */
  withStore<T>(mode: 'read' | 'write', fn: (store: Store) => T | Promise<T>): Promise<T>;
}

/** What a command prints: the JSON document for `--json`, the text for people otherwise. */
export interface CommandOutput {
  readonly json: unknown;
  readonly text: string;
}

export interface Command {
  /** The words that name it, e.g. ['store', 'info']. */
  readonly name: readonly string[];
  /** Its arguments after the name, for the usage text, e.g. 'FILE… [--type T]'. */
  readonly synopsis: string;
  readonly summary: string;
  readonly options?: OptionsConfig;
  readonly args: { readonly min: number; readonly max: number };
  run(ctx: CommandContext, args: readonly string[], options: OptionValues): Promise<CommandOutput>;
}

/** Bad usage: exit 2 with the usage text (SPEC §10). */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}
