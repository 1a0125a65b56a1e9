import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chromium, type BrowserContext, type FileChooser, type Page } from 'playwright-core';
import { builtForRun, hostArgs } from './built.ts';
import { REPO_ROOT } from './cli.ts';
import { lines } from './workers.ts';

/**
 * Where a Chromium is looked for after `BRICK_WORK_CHROMIUM`, in order. On a Mac Google Chrome first:
 * Homebrew's Chromium cask is an unsigned, quarantined snapshot that macOS calls "damaged" (issue 63).
 * Elsewhere Debian's.
 */
export function chromiumPlaces(platform: NodeJS.Platform = process.platform): readonly string[] {
  return platform === 'darwin'
    ? [
        '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
        '/Applications/Chromium.app/Contents/MacOS/Chromium',
        '/opt/homebrew/bin/chromium',
      ]
    : ['/usr/bin/chromium', '/usr/bin/chromium-browser'];
}

/** The Chromium the browser tests drive: `BRICK_WORK_CHROMIUM`, else the first of `chromiumPlaces` there; null: none. */
export function chromiumPath(
  env: NodeJS.ProcessEnv = process.env,
  exists: (file: string) => boolean = fs.existsSync,
  platform: NodeJS.Platform = process.platform,
): string | null {
  const chosen = env['BRICK_WORK_CHROMIUM'];
  if (chosen) return exists(chosen) ? chosen : null;
  return chromiumPlaces(platform).find((p) => exists(p)) ?? null;
}

/** Chromium (Debian's in CI), driven by playwright-core: headless, a fresh profile, no background networking. */
export const CHROMIUM = chromiumPath() ?? '/usr/bin/chromium';

import { NEEDS_CHROMIUM } from './needs.ts';

export { NEEDS_CHROMIUM };

export function hasChromium(): boolean {
  return chromiumPath() !== null;
}

/** Chrome's user agent on a Mac, as the page reads it (renderer/shortcuts.ts: ⌘ for Ctrl). */
export const MAC_USER_AGENT =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/141.0.0.0 Safari/537.36';

/**
 * The user agent the browser tests give their pages: a Mac's with `BRICK_WORK_E2E_UA=mac` (the simulated
 * Mac run, scripts/simulated-mac.sh), else the browser's own (undefined).
 */
export function e2eUserAgent(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const asked = env['BRICK_WORK_E2E_UA'];
  if (asked === undefined || asked === '') return undefined;
  if (asked === 'mac') return MAC_USER_AGENT;
  throw new Error(`BRICK_WORK_E2E_UA is "${asked}": it may only be "mac", or unset for the browser's own`);
}

export async function launchBrowser({ userAgent = e2eUserAgent() }: { userAgent?: string } = {}): Promise<{
  context: BrowserContext;
  close(): Promise<void>;
}> {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'brick-work-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    ...(userAgent === undefined ? {} : { userAgent }),
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

/**
 * The browser host on a store file, as `npm run serve` starts it, and the URL it prints (its token in the
 * fragment): the run's bundle of it serving the run's screens (test/setup/global.ts), else the sources
 * through tsx serving the screens this test file built (`buildScreens`).
 */
export async function startHost(
  dbPath: string,
  /** More of the host's arguments (`--desk NAME`). */
  more: readonly string[] = [],
): Promise<{ url: string; child: ChildProcess }> {
  const screens = builtForRun()?.screens ?? built;
  const child = spawn(
    process.execPath,
    [...hostArgs(), '--db', dbPath, ...more, ...(screens === undefined ? [] : ['--renderer', screens])],
    { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const url = (await lines(child).waitFor(/^open http/)).replace(/^open /, '');
  return { url, child };
}

/** The screens this test file built, which its hosts serve (outside a test run). */
let built: string | undefined;

/**
 * The screens (vite), as `npm run serve` builds them before it starts the host. In a test run, the
 * run's one build (test/setup/global.ts). Else built into `outDir` (a folder of the test's or the bench's
 * own), or into a folder of this test file's, which `startHost` serves. Never into the shared
 * dist/renderer: test files run at once, and one file's build empties the folder another's host is serving.
 */
export function buildScreens(outDir?: string): string {
  const run = builtForRun();
  if (outDir === undefined && run !== null) return run.screens;
  // (Under test-results/, which is scratch: a test file's process is ended without an exit to clean up in.)
  if (outDir === undefined) fs.mkdirSync(path.join(REPO_ROOT, 'test-results'), { recursive: true });
  const into = outDir ?? (built ??= fs.mkdtempSync(path.join(REPO_ROOT, 'test-results', 'screens-')));
  execFileSync(
    'npx',
    ['vite', 'build', '--config', 'vite.renderer.config.ts', '--outDir', into, '--emptyOutDir', '--logLevel', 'error'],
    { cwd: REPO_ROOT, stdio: 'inherit' },
  );
  return into;
}

/**
 * The file chooser that `act` (a key or a click on a file picker) opens. Once, in CI with the whole suite
 * running, headless Chromium showed no chooser for an Enter that reached the focused picker button; so
 * when none comes within 10 s, `act` is done once more, and the test says so in its output. A picker that
 * never opens a chooser still fails the test.
 */
export async function fileChooserFrom(page: Page, act: () => Promise<void>): Promise<FileChooser> {
  const first = page.waitForEvent('filechooser', { timeout: 10_000 });
  // Listening turns Chromium's chooser interception on by a message Playwright does not wait for; a round
  // trip to the page first, so that a key sent at once can't open a chooser before it is intercepted.
  await page.evaluate(() => 0);
  await act();
  try {
    return await first;
  } catch {
    console.log('no file chooser 10 s after the first try: trying once more');
    const second = page.waitForEvent('filechooser', { timeout: 30_000 });
    await page.evaluate(() => 0);
    await act();
    return second;
  }
}

/** The app in Chromium through the browser host on `dbPath`: a page opened on it, and how to close both. */
export async function openApp(
  dbPath: string,
  more: readonly string[] = [],
): Promise<{
  page: Page;
  host: ChildProcess;
  browser: Awaited<ReturnType<typeof launchBrowser>>;
  close(): Promise<void>;
}> {
  const started = await startHost(dbPath, more);
  const browser = await launchBrowser();
  const page = await browser.context.newPage();
  await page.goto(started.url);
  return {
    page,
    host: started.child,
    browser,
    async close() {
      await browser.close();
      started.child.kill('SIGTERM');
    },
  };
}

/** Opens an order from the Orders screen by its reference, and waits for its heading. */
export async function openOrderByReference(page: Page, reference: string): Promise<void> {
  await page.getByRole('navigation', { name: 'Screens' }).getByRole('button', { name: 'Orders' }).click();
  await page
    .getByRole('table', { name: 'Order list' })
    .getByRole('row', { name: new RegExp(reference) })
    .click();
  await page.getByRole('heading', { name: new RegExp(`Order ${reference}`) }).waitFor();
}
