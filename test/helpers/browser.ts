import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chromium, type BrowserContext } from 'playwright-core';
import { REPO_ROOT } from './cli.ts';
import { lines } from './workers.ts';

/** Debian's Chromium, driven by playwright-core: headless, a fresh profile, no background networking. */
export const CHROMIUM = '/usr/bin/chromium';

/** What the browser tests need, in the words a skipped one prints. */
export const NEEDS_CHROMIUM = "Debian's Chromium at /usr/bin/chromium (apt-get install -y chromium)";

export function hasChromium(): boolean {
  return fs.existsSync(CHROMIUM);
}

export async function launchBrowser(): Promise<{ context: BrowserContext; close(): Promise<void> }> {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'brick-work-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
    viewport: { width: 1360, height: 860 },
    acceptDownloads: true,
  });
  return {
    context,
    async close() {
      await context.close();
      fs.rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** The browser host on a store file, as `npm run serve` starts it, and the URL it prints (its token in the fragment). */
export async function startHost(dbPath: string): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(REPO_ROOT, 'src', 'host', 'main.ts'), '--db', dbPath],
    { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const url = (await lines(child).waitFor(/^open http/)).replace(/^open /, '');
  return { url, child };
}

/**
 * Builds the screens (vite) into dist/renderer, as `npm run serve` does before it starts the host, or into
 * `outDir` (a folder of the test's or the bench's own).
 */
export function buildScreens(outDir?: string): void {
  execFileSync(
    'npx',
    [
      'vite',
      'build',
      '--config',
      'vite.renderer.config.ts',
      ...(outDir === undefined ? [] : ['--outDir', outDir, '--emptyOutDir']),
      '--logLevel',
      'error',
    ],
    { cwd: REPO_ROOT, stdio: 'inherit' },
  );
}
