import { parseArgs } from 'node:util';
import { storeFromOption, toErrorValue } from '../app/store-place.ts';
import { isBrickWorkError } from '../vocabulary/errors.ts';
import { APP_NAME, APP_VERSION } from '../platform/version.ts';
import { cliApi } from './adapter.ts';
import { COMMANDS } from './all-commands.ts';
import {
  isShellCommand,
  RefusalWithResult,
  UsageError,
  type CliIo,
  type Command,
  type CommandOutput,
  type OptionValues,
  type OptionsConfig,
  type ShellContext,
} from './command.ts';

export const EXIT_DONE = 0;
export const EXIT_REFUSED = 1;
export const EXIT_USAGE = 2;

export const GLOBAL_OPTIONS: OptionsConfig = {
  db: { type: 'string' },
  json: { type: 'boolean' },
  // The desk this command works as (SPEC §8): its Undo takes back that desk's steps.
  desk: { type: 'string' },
  // The numbering this command shows items in first (SPEC §5); the store's setting when not given.
  numbering: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean' },
};

export function usage(commands: readonly Command[] = COMMANDS): string {
  const rows = commands.map((c) => {
    const call = [...c.name, c.synopsis].filter(Boolean).join(' ');
    return `  ${call.padEnd(44)} ${c.summary}`;
  });
  return [
    `usage: ${APP_NAME} [--db FILE] [--desk NAME] [--json] [--numbering bricklink|rebrickable] COMMAND …`,
    '',
    'commands:',
    ...rows,
    '',
    "The store is FILE, else $BRICK_WORK_DB, else brick-work.sqlite in the app's user-data folder.",
    'Exit status: 0 done, 1 refused (the reason on stderr), 2 bad usage.',
  ].join('\n');
}

/** Every option any command takes: one parse finds the command words whatever the options are. */
function allOptions(): OptionsConfig {
  const all: OptionsConfig = { ...GLOBAL_OPTIONS };
  for (const c of COMMANDS) Object.assign(all, c.options);
  return all;
}

function findCommand(words: readonly string[]): Command | undefined {
  let best: Command | undefined;
  for (const c of COMMANDS) {
    const matches = c.name.every((w, i) => words[i] === w);
    if (matches && (best === undefined || c.name.length > best.name.length)) best = c;
  }
  return best;
}

export interface ParsedCommandLine {
  readonly command: Command;
  readonly args: string[];
  readonly options: OptionValues;
}

/**
 * The command an invocation names, its arguments and options, checked as a run checks them (bad usage is a
 * `UsageError`) without opening any store: the README's check reads its commands with it.
 */
export function parseCommandLine(argv: readonly string[]): ParsedCommandLine | 'help' | 'version' {
  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], options: allOptions(), allowPositionals: true, strict: true, tokens: true });
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  const { values, positionals, tokens } = parsed;
  if (values['version']) return 'version';
  if (values['help'] || positionals.length === 0) return 'help';
  const command = findCommand(positionals);
  if (!command) throw new UsageError(`unknown command: ${positionals.join(' ')}`);
  const allowed = new Set([...Object.keys(GLOBAL_OPTIONS), ...Object.keys(command.options ?? {})]);
  for (const t of tokens) {
    if (t.kind === 'option' && !allowed.has(t.name)) {
      throw new UsageError(`${command.name.join(' ')} takes no option --${t.name}`);
    }
  }
  const args = positionals.slice(command.name.length);
  if (args.length < command.args.min || args.length > command.args.max) {
    const call = [...command.name, command.synopsis].filter(Boolean).join(' ');
    throw new UsageError(`usage: ${APP_NAME} ${call}`);
  }
  return { command, args, options: values };
}

/** A shell command gets the store's path; a contract command gets the contract, over the store (src/cli/adapter.ts). */
async function runCommand(
  command: Command,
  args: readonly string[],
  options: OptionValues,
  ctx: ShellContext,
): Promise<CommandOutput> {
  if (isShellCommand(command)) return command.run(ctx, args, options);
  const api = cliApi(command, args, options, ctx);
  try {
    return await command.run(api, args, options);
  } finally {
    api.close();
  }
}

/**
 * Runs one CLI invocation and returns its exit status. With `--json`, stdout holds exactly one JSON
 * document: the result, or `{"error": {"code", "message"}}` on a refusal.
 */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  const json = argv.includes('--json');
  let parsed: ReturnType<typeof parseCommandLine>;
  try {
    parsed = parseCommandLine(argv);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    io.stderr(`${APP_NAME}: ${e.message}\n\n${usage()}\n`);
    if (json) io.stdout(`${JSON.stringify({ error: { code: 'invalid-argument', message: e.message } })}\n`);
    return EXIT_USAGE;
  }
  if (parsed === 'help') {
    io.stdout(`${usage()}\n`);
    return EXIT_DONE;
  }
  if (parsed === 'version') {
    io.stdout(`${APP_VERSION}\n`);
    return EXIT_DONE;
  }

  const { command, args, options } = parsed;
  const chosen = storeFromOption(typeof options['db'] === 'string' ? options['db'] : undefined, io.env);
  if (!chosen.ok) {
    io.stderr(`${APP_NAME}: ${chosen.problem}\n`);
    if (json) io.stdout(`${JSON.stringify({ error: { code: 'invalid-argument', message: chosen.problem } })}\n`);
    return EXIT_USAGE;
  }
  const ctx: ShellContext = {
    storePath: chosen.path,
    json,
    io,
    log: (line) => io.stderr(`${APP_NAME}: ${line}\n`),
  };
  try {
    const out = await runCommand(command, args, options, ctx);
    io.stdout(json ? `${JSON.stringify(out.json)}\n` : `${out.text}\n`);
    return EXIT_DONE;
  } catch (e) {
    if (e instanceof UsageError) {
      io.stderr(`${APP_NAME}: ${e.message}\n`);
      if (json) io.stdout(`${JSON.stringify({ error: { code: 'invalid-argument', message: e.message } })}\n`);
      return EXIT_USAGE;
    }
    const error = toErrorValue(e, ctx.storePath);
    io.stderr(`${APP_NAME}: ${error.message}\n`);
    if (!isBrickWorkError(e) && io.env['BRICK_WORK_DEBUG']) io.stderr(`${(e as Error).stack ?? ''}\n`);
    // A refusal with a result to show gives it beside the error (one JSON document still).
    if (json) io.stdout(`${JSON.stringify(e instanceof RefusalWithResult ? { ...e.result, error } : { error })}\n`);
    return EXIT_REFUSED;
  }
}
