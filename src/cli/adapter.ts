import path from 'node:path';
import type { ArgsOf, CallName, FileArg, ResultOf } from '../api/contract.ts';
import { deskNameProblem } from '../api/desk-name.ts';
import { checkArguments } from '../api/validate.ts';
import { callsWrite, openCliService, type CliChoices } from '../app/cli-core.ts';
import { readFileWithin, type FilePurpose } from '../platform/file-limits.ts';
import { APP_NAME } from '../platform/version.ts';
import { UsageError, type CliApi, type ContractCommand, type OptionValues, type ShellContext } from './command.ts';

/** How the command line names the contract's fields, so that a refused argument is named as it was typed. */
const CLI_WORDS: Readonly<Record<string, string>> = {
  orderId: 'ORDER_ID',
  lineId: 'LINE_ID',
  documentId: 'DOCUMENT_ID',
  jobId: 'ID',
  id: 'ID',
  colourId: '--colour',
  expectedStep: '--step',
  limit: '--limit',
  type: 'TYPE',
  no: 'NUMBER',
  query: 'NAME',
  key: 'KEY',
  value: 'VALUE',
};

/** Whether this invocation of a command writes, and so opens the store read-write. */
export function commandWrites(command: ContractCommand, args: readonly string[], options: OptionValues): boolean {
  return command.writes ? command.writes(args, options) : callsWrite(command.calls);
}

/**
 * The CLI's adapter over the contract (SPEC §1): a command's calls, in the command line's words, to the
 * service the CLI's entry in src/app/ opens (`openCliService`: the same service the IPC adapter and the
 * browser host serve, over a store opened at the first call, read-only or read-write as the command
 * needs). Arguments are checked by the contract's own checks (a bad one is bad usage, exit 2, named as
 * typed); refusals come back as the service words them. The background work the app hands to its runner
 * thread (a catalogue load, a look-up run) runs in this process, and `background()` waits for it.
 */
export function cliApi(
  command: ContractCommand,
  args: readonly string[],
  options: OptionValues,
  shell: ShellContext,
): CliApi & { close(): void } {
  const { io } = shell;
  const mode = commandWrites(command, args, options) ? 'write' : 'read';
  const service = openCliService({
    storePath: shell.storePath,
    mode,
    env: io.env,
    log: shell.log,
    out: typeof options['out'] === 'string' ? path.resolve(options['out']) : null,
    outIsFolder: command.outIsFolder === true,
    choices: () => ({ ...numberingOption(options), ...deskOption(options) }),
    // BRICK_WORK_DEBUG shows which contract calls a command makes (the test of the CLI's mapping reads it).
    onCall: io.env['BRICK_WORK_DEBUG'] ? (name) => io.stderr(`${APP_NAME}: call ${name}\n`) : undefined,
  });

  const check = <K extends CallName>(name: K, callArgs: ArgsOf<K>): void => {
    if (!command.calls.includes(name)) {
      throw new Error(`${command.name.join(' ')} makes a call it does not declare: ${name}`);
    }
    if (mode === 'read' && callsWrite([name])) {
      throw new Error(`${command.name.join(' ')} writes (${name}) with the store opened for reading`);
    }
    // The contract's own check, before the store is opened: a bad argument is bad usage.
    const problem = checkArguments(name, callArgs, (field) => command.words?.[field] ?? CLI_WORDS[field]);
    if (problem !== null) throw new UsageError(problem);
  };

  return {
    async call<K extends CallName>(name: K, callArgs: ArgsOf<K>): Promise<ResultOf<K>> {
      check(name, callArgs);
      return service.call(name, callArgs);
    },
    check,
    readFile(file: string, purpose: FilePurpose): FileArg {
      return readFileWithin(file, purpose);
    },
    background() {
      const pending = service.pending();
      if (pending === null) throw new Error(`${command.name.join(' ')} waits for work it did not start`);
      return pending;
    },
    progress: shell.log,
    close() {
      service.close();
    },
  };
}

/** `--desk NAME`: the desk whose steps this command writes, undoes and redoes (SPEC §8); the computer's name when not given. */
function deskOption(options: OptionValues): Pick<CliChoices, 'desk'> {
  const value = options['desk'];
  if (value === undefined) return {};
  const problem = typeof value === 'string' ? deskNameProblem(value) : 'a desk needs a name';
  if (problem !== null) throw new UsageError(`--desk: ${problem}`);
  return { desk: (value as string).trim() };
}

/** `--numbering`: the numbering this command shows items in first (SPEC §5); bad usage when it is neither. */
function numberingOption(options: OptionValues): Pick<CliChoices, 'numbering'> {
  const value = options['numbering'];
  if (value === undefined) return {};
  if (value === 'bricklink' || value === 'rebrickable') return { numbering: value };
  throw new UsageError('--numbering takes bricklink or rebrickable');
}
