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
import { toErrorValue } from '../errors.ts';
import { credentialsFromEnv, resolveStorePath, type Credentials } from '../app/environment.ts';
import { startWorker, threadUrl } from '../worker-start.ts';
import { DecodeThread } from './decode-client.ts';
import { startHostServer } from './server.ts';
import { storeName } from '../store-location.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const { values } = parseArgs({
  options: { db: { type: 'string' }, port: { type: 'string' }, renderer: { type: 'string' } },
  allowPositionals: false,
});
const storePath = resolveStorePath(values.db, process.env);
const rendererDir = path.resolve(values.renderer ?? path.join(here, '..', '..', 'dist', 'renderer'));
const log = (line: string) => process.stderr.write(`brick-work: ${line}\n`);

if (!fs.existsSync(path.join(rendererDir, 'index.html'))) {
  log(`the screens are not built (${rendererDir} has no index.html); run "npm run build:renderer" first`);
  process.exit(1);
}

// The host keeps BrickLink credentials only in memory (from BRICKLINK_* or entered in Settings).
let credentials: Credentials | null = credentialsFromEnv(process.env).credentials;
let broadcast: <E extends EventName>(name: E, payload: ApiEvents[E]) => void = () => {};

try {
  const core = await startCore({
    storePath,
    workerUrl: threadUrl('runner-thread'),
    serviceWorkerUrl: threadUrl('service-thread'),
    credentials: { encrypted: false, get: () => credentials, set: (c) => (credentials = c) },
    files: null,
    emit: (name, payload) => broadcast(name, payload),
    log,
  });
  const decoder = new DecodeThread(() => startWorker(threadUrl('decode-thread'), null));
  const server = await startHostServer({
    service: core.service,
    rendererDir,
    port: values.port ? Number(values.port) : 0,
    log,
    decoder,
  });
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
