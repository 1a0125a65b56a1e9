import { deskNameProblem } from '../api/desk-name.ts';
import path from 'node:path';
import type { ArgsOf, CallName, FileArg, ResultOf } from '../api/contract.ts';
import { credentialsRefusal } from '../api/credentials.ts';
import { readsCredentials, WRITING_CALLS } from '../api/handlers/index.ts';
import type { CredentialStore } from '../api/ports.ts';
import { createApiService, type ApiService } from '../api/service.ts';
import { checkArguments } from '../api/validate.ts';
import { serviceContext } from '../app/context.ts';
import { credentialsFromEnv, type Store } from '../app/environment.ts';
import { inProcessJobs } from '../app/work.ts';
import { SYSTEM_CLOCK } from '../clock.ts';
import { BrickWorkError, type ErrorCode } from '../errors.ts';
import { readFileWithin, type FilePurpose } from '../file-limits.ts';
import { writeFileAtomically } from '../files.ts';
import { APP_NAME } from '../version.ts';
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
  return command.writes ? command.writes(args, options) : command.calls.some((c) => WRITING_CALLS.has(c));
}

/**
 * The CLI's adapter over the contract (SPEC §1): the same `ApiService` the IPC adapter and the browser host
 * serve, over a store this process opens at the first call, read-only or read-write as the command needs.
 * Arguments are checked by the contract's own checks (a bad one is bad usage, exit 2, named as typed);
 * refusals come back as the service words them. The background work the app hands to its runner thread
 * (a catalogue load, a look-up run) runs here, in this process, and `background()` waits for it.
 */
export function cliApi(
  command: ContractCommand,
  args: readonly string[],
  options: OptionValues,
  shell: ShellContext & { openStore(mode: 'read' | 'write'): Promise<Store> },
): CliApi & { close(): void } {
  const { io } = shell;
  const mode = commandWrites(command, args, options) ? 'write' : 'read';
  const out = typeof options['out'] === 'string' ? path.resolve(options['out']) : null;
  let opened: { store: Store; service: ApiService } | null = null;
  let jobs: ReturnType<typeof inProcessJobs> | null = null;

  const { credentials, missing } = credentialsFromEnv(io.env);
  const cliCredentials: CredentialStore = {
    encrypted: false,
    whereToEnter: `set ${missing.join(', ')} in the environment`,
    get: () => credentials,
    set: () => {
      throw new BrickWorkError('invalid-argument', 'The CLI reads the BrickLink credentials from BRICKLINK_*.');
    },
  };

  const open = async () => {
    if (opened !== null) return opened;
    const store = await shell.openStore(mode);
    const service = createApiService(
      serviceContext(store, shell.storePath, {
        clock: SYSTEM_CLOCK,
        // The CLI's profile: its background work runs in this process, and it recovers only when told
        // (`jobs recover`, SPEC §4).
        jobs: (jobs = inProcessJobs(store.db, store.path ?? shell.storePath, {
          clock: SYSTEM_CLOCK,
          env: io.env,
          log: (line) => io.stderr(`${APP_NAME}: ${line}\n`),
        })),
        credentials: cliCredentials,
        // The save dialog's counterpart is --out; there is nothing to pick from (files are named on the line).
        files: {
          pick: () => Promise.resolve(null),
          save: (_name, content) => {
            if (out === null) return Promise.resolve(null);
            writeFileAtomically(out, content);
            return Promise.resolve(out);
          },
        },
        emit: () => undefined,
        ...numberingOption(options),
        ...deskOption(options),
      }),
    );
    opened = { store, service };
    return opened;
  };

  return {
    async call<K extends CallName>(name: K, callArgs: ArgsOf<K>): Promise<ResultOf<K>> {
      if (!command.calls.includes(name)) {
        throw new Error(`${command.name.join(' ')} makes a call it does not declare: ${name}`);
      }
      if (WRITING_CALLS.has(name) && mode === 'read') {
        throw new Error(`${command.name.join(' ')} writes (${name}) with the store opened for reading`);
      }
      // The contract's own check, before the store is opened: a bad argument is bad usage.
      const problem = checkArguments(name, callArgs, (field) => command.words?.[field] ?? CLI_WORDS[field]);
      if (problem !== null) throw new UsageError(problem);
      // A call refused for want of credentials is refused before the store is opened (its lock waited for).
      const noCredentials = readsCredentials(name) ? credentialsRefusal(cliCredentials) : null;
      if (noCredentials !== null) throw noCredentials;
      const { service } = await open();
      // BRICK_WORK_DEBUG shows which contract calls a command makes (the test of the CLI's mapping reads it).
      if (io.env['BRICK_WORK_DEBUG']) io.stderr(`${APP_NAME}: call ${name}\n`);
      const answer = await service.call(name, callArgs);
      if (!answer.ok) throw new BrickWorkError(answer.error.code as ErrorCode, answer.error.message);
      return answer.value;
    },
    readFile(file: string, purpose: FilePurpose): FileArg {
      return readFileWithin(file, purpose);
    },
    background() {
      const pending = jobs?.pending() ?? null;
      if (pending === null) throw new Error(`${command.name.join(' ')} waits for work it did not start`);
      return pending;
    },
    progress(line) {
      io.stderr(`${APP_NAME}: ${line}\n`);
    },
    close() {
      opened?.store.close();
      opened = null;
    },
  };
}

/** `--desk NAME`: the desk whose steps this command writes, undoes and redoes (SPEC §8); the computer's name when not given. */
function deskOption(options: OptionValues): { desk?: string } {
  const value = options['desk'];
  if (value === undefined) return {};
  const problem = typeof value === 'string' ? deskNameProblem(value) : 'a desk needs a name';
  if (problem !== null) throw new UsageError(`--desk: ${problem}`);
  return { desk: (value as string).trim() };
}

/** `--numbering`: the numbering this command shows items in first (SPEC §5); bad usage when it is neither. */
function numberingOption(options: OptionValues): { numbering?: 'bricklink' | 'rebrickable' } {
  const value = options['numbering'];
  if (value === undefined) return {};
  if (value === 'bricklink' || value === 'rebrickable') return { numbering: value };
  throw new UsageError('--numbering takes bricklink or rebrickable');
}
