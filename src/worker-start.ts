import { Worker, type TransferListItem } from 'node:worker_threads';

/**
 * Starts a worker thread: from a checkout its script is TypeScript and starts by registering tsx's loader,
 * as bin/ does; built, it is the bundled `.js`. `transferList`: what `workerData` hands over (a port).
 */
export function startWorker(url: URL, workerData: unknown, transferList: readonly TransferListItem[] = []): Worker {
  return url.pathname.endsWith('.ts')
    ? new Worker(
        `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(url.href)}); });`,
        { eval: true, workerData, transferList: [...transferList] },
      )
    : new Worker(url, { workerData, transferList: [...transferList] });
}
