/**
 * The CLI's one entry into the core (SPEC §1): the same service the app and the browser host serve, over
 * the store this process opens at its first call, read-only or read-write as the command's calls need. The
 * CLI's profile: the background work the app hands to its runner thread (a catalogue load, a look-up run)
 * runs in this process and `pending()` waits for it; no threads; no recovery unless told (`jobs recover`);
 * credentials from the environment; `--out` as the file port; stderr as the log.
 */
import path from 'node:path';
import type { ArgsOf, CallName, ResultOf } from '../api/contract.ts';
import { credentialsRefusal } from '../api/credentials.ts';
import { readsCredentials, WRITING_CALLS } from '../api/handlers/index.ts';
import { createApiService, type ApiService } from '../api/service.ts';
import { SYSTEM_CLOCK } from '../platform/clock.ts';
import { BrickWorkError, type ErrorCode } from '../vocabulary/errors.ts';
import { writeFileAtomically } from '../platform/files.ts';
import type { Store } from '../store/open.ts';
import { writeSession } from '../store/session.ts';
import { serviceContext } from './context.ts';
import { keptPicturesOnly } from '../pictures/kept.ts';
import { credentialsFromEnvironment } from './env-credentials.ts';
import { openForCommand } from './open-for-command.ts';
import { inProcessJobs, type InProcessResult } from './work.ts';

/**
 * The work a call started in this process (SPEC §5: the CLI runs the catalogue job and the look-up in its
 * own process, where the app hands them to its runner thread): its result, once it has ended.
 */
export type BackgroundResult = InProcessResult;

/** The command line's choices for the service: the desk it writes as (SPEC §8), the numbering it shows first (§5). */
export interface CliChoices {
  readonly desk?: string;
  readonly numbering?: 'bricklink' | 'rebrickable';
}

export interface CliServiceOptions {
  readonly storePath: string;
  /** Read-only for a command that only reads (never upgrading); read-write, upgrading an older store. */
  readonly mode: 'read' | 'write';
  readonly env: NodeJS.ProcessEnv;
  /** Where the open, the upgrade and the background work tell what they do (stderr). */
  readonly log: (line: string) => void;
  /** `--out`: where a file the service saves is written; null when not given (nothing is saved). */
  readonly out: string | null;
  /** `--out` names a folder: each file saved goes into it under its own name (`put-away --export`'s two files). */
  readonly outIsFolder?: boolean;
  /** Read once the store is open, so that a bad choice is found after what the open finds (as it always was). */
  readonly choices: () => CliChoices;
  /** Told before each call, once the store is open (BRICK_WORK_DEBUG shows which calls a command makes). */
  readonly onCall?: (name: CallName) => void;
}

export interface CliService {
  /** Makes the call, opening the store at the first; answers with the result, or throws the refusal as the service words it. */
  call<K extends CallName>(name: K, args: ArgsOf<K>): Promise<ResultOf<K>>;
  /** The work the last `catalogue.load` or `lookup.start` started here; null until one is started. */
  pending(): Promise<BackgroundResult> | null;
  close(): void;
}

/** Whether any of `calls` writes: a command making them opens the store read-write. */
export function callsWrite(calls: readonly CallName[]): boolean {
  return calls.some((c) => WRITING_CALLS.has(c));
}

/** The service for one CLI command, over the store at `o.storePath`, opened at the first call. */
export function openCliService(o: CliServiceOptions): CliService {
  const credentials = credentialsFromEnvironment(o.env);
  let opened: { store: Store; service: ApiService; pictures: { close(): void } } | null = null;
  let jobs: ReturnType<typeof inProcessJobs> | null = null;

  const open = async () => {
    if (opened !== null) return opened;
    const store = await openForCommand(o.storePath, o.mode, o.log);
    // The pictures the app keeps, for a list on paper (`pick --html`, `--pdf`); none is fetched here.
    const pictures = keptPicturesOnly({ db: store.db, storePath: o.storePath });
    const choices = o.choices();
    // The desk this command writes as: its steps, and the jobs and loads it runs here (SPEC §8).
    const session = writeSession(store.db, choices.desk);
    const service = createApiService(
      serviceContext(store, o.storePath, {
        clock: SYSTEM_CLOCK,
        // The CLI's profile: its background work runs in this process, and it recovers only when told
        // (`jobs recover`, SPEC §4).
        jobs: (jobs = inProcessJobs(session, store.path ?? o.storePath, {
          clock: SYSTEM_CLOCK,
          env: o.env,
          log: o.log,
        })),
        credentials,
        // The save dialog's counterpart is --out; there is nothing to pick from (files are named on the line).
        files: {
          pick: () => Promise.resolve(null),
          save: (name, content) => {
            if (o.out === null) return Promise.resolve(null);
            const to = o.outIsFolder === true ? path.join(o.out, name) : o.out;
            writeFileAtomically(to, content);
            return Promise.resolve(to);
          },
        },
        emit: () => undefined,
        pictures,
        // BRICKLINK_API_URL overrides the store's api-url for the CLI (a stand-in server, a test).
        ...(o.env['BRICKLINK_API_URL'] ? { apiUrl: o.env['BRICKLINK_API_URL'] } : {}),
        ...choices,
      }),
    );
    opened = { store, service, pictures };
    return opened;
  };

  return {
    async call(name, args) {
      // A call refused for want of credentials is refused before the store is opened (its lock waited for).
      const noCredentials = readsCredentials(name) ? credentialsRefusal(credentials) : null;
      if (noCredentials !== null) throw noCredentials;
      const { service } = await open();
      o.onCall?.(name);
      const answer = await service.call(name, args);
      if (!answer.ok) throw new BrickWorkError(answer.error.code as ErrorCode, answer.error.message);
      return answer.value;
    },
    pending: () => jobs?.pending() ?? null,
    close() {
      opened?.pictures.close();
      opened?.store.close();
      opened = null;
    },
  };
}
