import path from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { screensStamp } from './scripts/screens-stamp.ts';

const here = path.join(path.dirname(fileURLToPath(import.meta.url)), 'renderer');

/** The screens, built to dist/renderer: loaded from file:// by the app and served by the browser host. */
export default defineConfig({
  root: here,
  base: './',
  // The stamp says what the build was made from: `npm run serve` builds again only when that changed.
  plugins: [react(), screensStamp()],
  build: {
    outDir: path.join(here, '..', 'dist', 'renderer'),
    emptyOutDir: true,
    sourcemap: false,
    target: 'es2022',
  },
});
