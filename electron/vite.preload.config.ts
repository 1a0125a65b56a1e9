import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The preload: a sandboxed preload must be one CommonJS file that needs nothing but electron. */
export default defineConfig({
  root,
  build: {
    ssr: true,
    outDir: path.join(root, 'dist', 'electron'),
    emptyOutDir: false,
    target: 'node22',
    sourcemap: false,
    rollupOptions: {
      input: { preload: path.join(root, 'electron', 'preload.ts') },
      output: { format: 'cjs', entryFileNames: '[name].cjs' },
      external: ['electron'],
    },
  },
});
