import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import type { ThreadName } from '../src/platform/worker-start.ts';
import { threadEntries } from '../vite.node.config.ts';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The threads the app starts (the browser host's decode thread is not among them). */
const APP_THREADS: readonly ThreadName[] = [
  'runner-thread',
  'service-thread',
  'catalogue-reader-thread',
  'postgres-bridge-thread',
  'pictures-thread',
];

/** What the package ships beside the bundle (package.json `build.files`): every other import is bundled. */
export const SHIPPED = ['electron', 'better-sqlite3'] as const;

/**
 * The Electron side, bundled for Electron's Node; only electron and better-sqlite3 stay outside the bundle
 * (the package ships them). Default: the main process, the job runner thread, the service thread, the catalogue
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
    // Everything but what the package ships (electron; better-sqlite3, native) is bundled: the package's
    // `files` hold no other node_modules, so a module left outside (pg) would be missing at start (issue 44).
    ssr: { noExternal: true },
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
        // pg-native: pg's optional native client, asked for only when `pg.native` is read, which brick-work never does.
        external: preload ? ['electron'] : [...SHIPPED, 'pg-native', /^node:/],
      },
    },
  };
});
