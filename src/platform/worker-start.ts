import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker, type TransferListItem } from 'node:worker_threads';

/**
 * Every thread script of the core, by the name its bundle has (electron/vite.config.ts builds each as
 * `<name>.js` beside the app's main; the test run's build does the same), and its source under `src/`.
 */
export const THREAD_SCRIPTS = {
  'runner-thread': 'app/runner-thread.ts',
  'service-thread': 'app/service-thread.ts',
  'catalogue-reader-thread': 'catalogue/reader-thread.ts',
  'postgres-bridge-thread': 'store/postgres/bridge-thread.ts',
  'decode-thread': 'host/decode-thread.ts',
  'pictures-thread': 'pictures/fetch-thread.ts',
} as const;

export type ThreadName = keyof typeof THREAD_SCRIPTS;

const HERE = import.meta.url;

/**
 * A thread's script for code that runs from this module's place: its source in a checkout (this file is
 * `src/platform/worker-start.ts`), else the bundled `<name>.js` beside the entry, whether this code sits in an
 * entry or in a shared chunk of `assets/`.
 */
export function threadUrl(name: ThreadName): URL {
  if (HERE.endsWith('.ts')) return new URL(`../${THREAD_SCRIPTS[name]}`, HERE);
  return new URL(`${HERE.includes('/assets/') ? '../' : './'}${name}.js`, HERE);
}

/**
 * `BRICK_WORK_BUILT_THREADS`: a folder holding the threads bundled from this checkout's sources (the test
 * run builds one at its start). A checkout's thread then starts from its bundle instead of compiling
 * every module again under tsx in each new thread: the same code, started in a tenth of the time.
 */
function builtInstead(url: URL): URL | null {
  const dir = process.env['BRICK_WORK_BUILT_THREADS'];
  if (dir === undefined || dir === '' || url.protocol !== 'file:') return null;
  const file = fileURLToPath(url).split(path.sep).join('/');
  for (const [name, source] of Object.entries(THREAD_SCRIPTS))
    if (file.endsWith(`/src/${source}`)) return pathToFileURL(path.join(dir, `${name}.js`));
  return null;
}

/**
 * Starts a worker thread: from a checkout its script is TypeScript and starts by registering tsx's loader,
 * as bin/ does; built, it is the bundled `.js`. `transferList`: what `workerData` hands over (a port).
 */
export function startWorker(url: URL, workerData: unknown, transferList: readonly TransferListItem[] = []): Worker {
  const script = url.pathname.endsWith('.ts') ? (builtInstead(url) ?? url) : url;
  return script.pathname.endsWith('.ts')
    ? new Worker(
        `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(script.href)}); });`,
        { eval: true, workerData, transferList: [...transferList] },
      )
    : new Worker(script, { workerData, transferList: [...transferList] });
}
