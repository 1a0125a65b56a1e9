import type { ParseArgsConfig } from 'node:util';
import type { ArgsOf, CallName, FileArg, ResultOf } from '../api/contract.ts';
import type { BackgroundResult } from '../app/cli-core.ts';
import { BrickWorkError, type ErrorCode } from '../vocabulary/errors.ts';
import type { FilePurpose } from '../platform/file-limits.ts';

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

/**
 * A refusal that still has a result to show: with `--json`, the CLI prints it beside the error (a dry run
 * that would be refused still shows its whole preview, every line with its placement or reason: SPEC §8).
 */
export class RefusalWithResult extends BrickWorkError {
  constructor(
    code: ErrorCode,
    message: string,
    readonly result: object,
  ) {
    super(code, message);
  }
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
 * The contract as a command sees it (SPEC §1: the CLI is a third adapter over the same service as the
 * IPC adapter and the browser host). `call` checks the arguments as the service does and answers with
 * the contract's view, or throws the refusal; a command has no other way to the store.
 */
export interface CliApi {
  call<K extends CallName>(name: K, args: ArgsOf<K>): Promise<ResultOf<K>>;
  /**
   * Checks a call's arguments as `call` does, without making it: a command that reads before it writes
   * finds bad usage of its write before it opens the store.
   */
  check<K extends CallName>(name: K, args: ArgsOf<K>): void;
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
  /** Its `--out` names a folder that each file it saves goes into, under the file's own name (several files). */
  readonly outIsFolder?: boolean;
  /** How it names the calls' fields where the CLI's usual words (`ORDER_ID`, `--step` …) don't fit. */
  readonly words?: Readonly<Record<string, string>>;
  run(api: CliApi, args: readonly string[], options: OptionValues): Promise<CommandOutput>;
}

export interface ShellContext {
  readonly storePath: string;
  readonly json: boolean;
  readonly io: CliIo;
  /** Tells a line of what the work does (an open's upgrade, a copy's progress) on stderr. */
  readonly log: (line: string) => void;
}

/**
 * A command the app has no counterpart for, for the reason it gives: it works on the store at its path
 * through a function of src/app/ (`store-commands.ts`), and prints what that answers.
 */
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
