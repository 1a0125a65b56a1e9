import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import type { ThreadName } from '../src/worker-start.ts';
import { threadEntries } from '../vite.node.config.ts';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The threads the app starts (the browser host's decode thread is not among them). */
const APP_THREADS: readonly ThreadName[] = [
  'runner-thread',
  'service-thread',
  'catalogue-reader-thread',
  'postgres-bridge-thread',
];

/**
 * The Electron side, bundled for Electron's Node; better-sqlite3, pg and electron stay outside the bundle (the
 * package ships them). Default: the main process, the job runner thread, the service thread, the catalogue
 * reader thread and a shop server's connection thread (ESM). `--mode preload`: the preload, which a
 * sandboxed window needs as one CommonJS file that needs nothing but electron.
 */
export default defineConfig(({ mode }) => {
  const preload = mode === 'preload';
  const input: Record<string, string> = preload
    ? { preload: path.join(root, 'electron', 'preload.ts') }
    : { main: path.join(root, 'electron', 'main.ts'), ...threadEntries(APP_THREADS) };
  return {
    root,
    build: {
      ssr: true,
      outDir: path.join(root, 'dist', 'electron'),
      // The main build (first) starts from an empty folder, so no chunk of an earlier build is packaged;
      // the preload build (second) adds to it.
      emptyOutDir: !preload,
      target: 'node22',
      sourcemap: false,
      rollupOptions: {
        input,
        output: preload
          ? { format: 'cjs', entryFileNames: '[name].cjs' }
          : { format: 'es', entryFileNames: '[name].js' },
        external: preload ? ['electron'] : ['electron', 'better-sqlite3', /^node:/],
      },
    },
  };
});
