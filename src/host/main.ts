/**
 * `npm run serve [-- --db FILE] [--port N]`: the browser host. Prints the URL to open (it carries this
 * start's token). Runs the job runner and the start-up recovery, as the app does.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { ApiEvents, EventName } from '../api/contract.ts';
import { startCore } from '../app/core.ts';
import { credentialsInMemory } from '../app/env-credentials.ts';
import { storeFromOption, toErrorValue } from '../app/store-place.ts';
import { startWorker, threadUrl } from '../platform/worker-start.ts';
import { DecodeThread } from './decode-client.ts';
import { startHostServer } from './server.ts';
import { deskNameProblem } from '../api/desk-name.ts';
import { storeName } from '../vocabulary/store-location.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const log = (line: string) => process.stderr.write(`brick-work: ${line}\n`);
const usage = (problem: string): never => {
  log(`${problem}. Usage: npm run serve [-- --db FILE] [--port N] [--desk NAME]`);
  process.exit(2);
};
let values: { db?: string; port?: string; renderer?: string; desk?: string } = {};
try {
  ({ values } = parseArgs({
    options: {
      db: { type: 'string' },
      port: { type: 'string' },
      renderer: { type: 'string' },
      desk: { type: 'string' },
    },
    allowPositionals: false,
  }));
} catch (e) {
  usage((e as Error).message.replace(/\.$/, ''));
}
const port = values.port === undefined ? 0 : Number(values.port);
if (values.port !== undefined && (!/^\d+$/.test(values.port) || port < 1 || port > 65535))
  usage(`--port ${values.port.slice(0, 20)}: give a port number from 1 to 65535, or leave it out for any free one`);
const deskProblem = values.desk === undefined ? null : deskNameProblem(values.desk);
if (deskProblem !== null) usage(`--desk: ${deskProblem}`);
const chosen = storeFromOption(values.db, process.env);
const storePath = chosen.ok ? chosen.path : usage(chosen.problem);
const rendererDir = path.resolve(values.renderer ?? path.join(here, '..', '..', 'dist', 'renderer'));

if (!fs.existsSync(path.join(rendererDir, 'index.html'))) {
  log(`the screens are not built (${rendererDir} has no index.html); run "npm run build:renderer" first`);
  process.exit(1);
}

// The host keeps BrickLink credentials only in memory (from BRICKLINK_* or entered in Settings).
const credentials = credentialsInMemory(process.env);
let broadcast: <E extends EventName>(name: E, payload: ApiEvents[E]) => void = () => {};

try {
  const core = await startCore({
    storePath,
    workerUrl: threadUrl('runner-thread'),
    serviceWorkerUrl: threadUrl('service-thread'),
    credentials,
    files: null,
    emit: (name, payload) => broadcast(name, payload),
    log,
    // The desk this host is (SPEC §8): its Undo takes back its own steps.
    ...(values.desk === undefined ? {} : { desk: values.desk.trim() }),
  });
  const decoder = new DecodeThread(() => startWorker(threadUrl('decode-thread'), null));
  const server = await startHostServer({ service: core.service, rendererDir, port, log, decoder }).catch(
    async (e: unknown) => {
      // The port can't be had: nothing was served; the store is closed as it was opened.
      await decoder.close();
      await core.close();
      throw e;
    },
  );
  broadcast = (name, payload) => server.broadcast(name, payload);
  const readOnly = core.readOnly
    ? ` for reading only (${core.readOnly.reason}${core.readOnly.snapshot ? '; from a private copy' : ''})`
    : '';
  process.stdout.write(`brick-work is serving ${storeName(storePath)}${readOnly}\nopen ${server.url}\n`);
  const stop = async () => {
    await server.close();
    await decoder.close();
    await core.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
} catch (e) {
  log(toErrorValue(e, storePath).message);
  process.exit(1);
}
