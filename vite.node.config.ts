import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { InlineConfig } from 'vite';
import { THREAD_SCRIPTS, type ThreadName } from './src/platform/worker-start.ts';

const root = path.dirname(fileURLToPath(import.meta.url));

/** Each thread's source as a build entry, named as `threadUrl` (src/platform/worker-start.ts) looks for its bundle. */
export function threadEntries(names: readonly ThreadName[]): Record<string, string> {
  return Object.fromEntries(names.map((name) => [name, path.join(root, 'src', ...THREAD_SCRIPTS[name].split('/'))]));
}

/**
 * The core's Node side as the Electron build bundles it (electron/vite.config.ts), for plain Node: the CLI
 * (`cli.js`), the browser host (`host.js`) and every thread beside them, better-sqlite3 and pg left to
 * node_modules, so `outDir` must sit inside the checkout. The test run starts its CLIs, hosts and threads
 * from this build (test/setup/global.ts): the same code, without compiling each module again under tsx in
 * every process and thread.
 */
export function nodeBuild(outDir: string): InlineConfig {
  return {
    configFile: false,
    root,
    logLevel: 'error',
    build: {
      ssr: true,
      outDir,
      emptyOutDir: true,
      target: 'node20',
      sourcemap: false,
      rollupOptions: {
        input: {
          cli: path.join(root, 'src', 'cli', 'main.ts'),
          host: path.join(root, 'src', 'host', 'main.ts'),
          ...threadEntries(Object.keys(THREAD_SCRIPTS) as ThreadName[]),
        },
        output: { format: 'es', entryFileNames: '[name].js' },
        external: ['better-sqlite3', 'pg', /^node:/],
      },
    },
  };
}
