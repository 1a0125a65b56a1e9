import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * The main process and the job runner thread, bundled for Electron's Node (ESM). better-sqlite3 and
 * electron stay outside the bundle: they are loaded at run time.
 */
export default defineConfig({
  root,
  build: {
    ssr: true,
    outDir: path.join(root, 'dist', 'electron'),
    emptyOutDir: false,
    target: 'node22',
    sourcemap: false,
    rollupOptions: {
      input: {
        main: path.join(root, 'electron', 'main.ts'),
        'runner-thread': path.join(root, 'src', 'jobs', 'runner-thread.ts'),
      },
      output: { format: 'es', entryFileNames: '[name].js' },
      external: ['electron', 'better-sqlite3', /^node:/],
    },
  },
});
