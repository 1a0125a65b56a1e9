import type { ParseArgsConfig } from 'node:util';
import type { ArgsOf, CallName, FileArg, ResultOf } from '../api/contract.ts';
import type { Store } from '../app/environment.ts';
import type { InProcessResult } from '../app/work.ts';
import type { FilePurpose } from '../file-limits.ts';

export type OptionsConfig = NonNullable<ParseArgsConfig['options']>;
export type OptionValues = Record<string, string | boolean | (string | boolean)[] | undefined>;

export interface CliIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly env: NodeJS.ProcessEnv;
}

/** What a command prints: the JSON document for `--json`, the text for people otherwise. */
export interface CommandOutput {
  readonly json: unknown;
  readonly text: string;
}

interface CommandBase {
  /** The words that name it, e.g. ['store', 'info']. */
  readonly name: readonly string[];
  /** Its arguments after the name, for the usage text, e.g. 'FILE… [--type T]'. */
  readonly synopsis: string;
  readonly summary: string;
  readonly options?: OptionsConfig;
  readonly args: { readonly min: number; readonly max: number };
}

/**
 * The work a call started in this process (SPEC §5: the CLI runs the catalogue job and the look-up in its
 * own process, where the app hands them to its runner thread): its result, once it has ended.
 */
/** Background work a command started, as it ended (the CLI runs it in its own process). */
export type BackgroundResult = InProcessResult;

/**
 * The contract as a command sees it (SPEC §1: the CLI is a third adapter over the same service as the
 * IPC adapter and the browser host). `call` checks the arguments as the service does and answers with
 * the contract's view, or throws the refusal; a command has no other way to the store.
 */
export interface CliApi {
  call<K extends CallName>(name: K, args: ArgsOf<K>): Promise<ResultOf<K>>;
  /**
   * A file named on the command line, as the contract takes files: `{name, content}` (the shell reads it,
   * as the app's dialog does) — refused with `too-big` before it is read when it is over the cap for what it is.
   */
  readFile(file: string, purpose: FilePurpose): FileArg;
  /** Waits for the work the last `catalogue.load` or `lookup.start` call started here, and gives its result. */
  background(): Promise<BackgroundResult>;
  /** Where a command tells people how long work goes (stderr). */
  progress(line: string): void;
}

/** A command with an app counterpart: it goes through the contract's calls, and only those it names. */
export interface ContractCommand extends CommandBase {
  /** The contract calls it may make: its counterparts in the app. */
  readonly calls: readonly CallName[];
  /**
   * Whether this invocation writes (the store is then opened read-write, which upgrades an older store);
   * without it, whether any of `calls` writes.
   */
  readonly writes?: (args: readonly string[], options: OptionValues) => boolean;
  /** How it names the calls' fields where the CLI's usual words (`ORDER_ID`, `--step` …) don't fit. */
  readonly words?: Readonly<Record<string, string>>;
  run(api: CliApi, args: readonly string[], options: OptionValues): Promise<CommandOutput>;
}

export interface ShellContext {
  readonly storePath: string;
  readonly json: boolean;
  readonly io: CliIo;
  /**
   * Opens the store as `mode` says (read-only for reading, which never upgrades; read-write, which
   * upgrades an older store and says where the backup went), runs `fn`, and closes it whatever happens.
   */
  withStore<T>(mode: 'read' | 'write', fn: (store: Store) => T | Promise<T>): Promise<T>;
}

/** A command the app has no counterpart for: it works on the store directly, for the reason it gives. */
export interface ShellCommand extends CommandBase {
  /** Why it is the shell's alone. */
  readonly shellOnly: string;
  run(ctx: ShellContext, args: readonly string[], options: OptionValues): Promise<CommandOutput>;
}

export type Command = ContractCommand | ShellCommand;

export const isShellCommand = (c: Command): c is ShellCommand => 'shellOnly' in c;

/** Bad usage: exit 2 with the usage text (SPEC §10). */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/**
 * A number as the command line gives it. Anything else goes on as the text it is, typed as the number the
 * call wants: the contract's own check (which every call meets first) refuses it, naming the argument.
 */
export function numberArg(text: string | undefined): number {
  return (text !== undefined && /^\d{1,15}$/.test(text) ? Number(text) : (text ?? '')) as number;
}
