/**
 * Dark mode in the app's window (issue 63 §4), electron mocked: the window's ground is the screens' own,
 * light or dark as the system is when it opens, and follows when staff switch the appearance. (The page
 * itself follows by CSS, prefers-color-scheme, which Chromium takes from nativeTheme: test/e2e/appearance.test.ts.)
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { configureApp, startApp } from '../../electron/app.ts';
import { REPO_ROOT } from '../helpers/cli.ts';
import { tempDir } from '../helpers/temp.ts';
import { fakeElectron } from './fake-electron.ts';

const WORKER = new URL('../../src/app/runner-thread.ts', import.meta.url);
const closing: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closing.splice(0)) await close();
});

async function startOn(options: { dark: boolean }) {
  const dir = tempDir();
  const userData = path.join(dir, 'userData');
  fs.mkdirSync(userData);
  const fake = fakeElectron({ userData, appPath: dir, dark: options.dark });
  configureApp(fake.electron);
  const started = await startApp(
    fake.electron,
    {
      rendererIndex: path.join(REPO_ROOT, 'renderer', 'index.html'),
      preload: path.join(dir, 'preload.cjs'),
      workerUrl: WORKER,
    },
    () => {},
  );
  closing.push(() => started.core.close());
  return fake;
}

/** The screens' `--bg` in renderer/styles.css: the light one in `:root`, the dark one under prefers-color-scheme: dark. */
function screensGround(): { light: string; dark: string } {
  const css = fs.readFileSync(path.join(REPO_ROOT, 'renderer', 'styles.css'), 'utf8');
  const dark = /@media \(prefers-color-scheme: dark\)\s*\{\s*:root\s*\{([^}]*)\}/.exec(css)?.[1] ?? '';
  const light = /^:root\s*\{([^}]*)\}/m.exec(css)?.[1] ?? '';
  const bg = (block: string) => /--bg:\s*(#[0-9a-f]{6})/i.exec(block)?.[1]?.toLowerCase();
  return { light: bg(light) ?? 'none', dark: bg(dark) ?? 'none' };
}

describe('the window follows the system’s appearance (electron mocked)', () => {
  it('opens on the screens’ own ground: dark on a dark Mac, light on a light one (never Electron’s white)', async () => {
    const ground = screensGround();
    expect(ground.dark).not.toBe(ground.light);
    const dark = await startOn({ dark: true });
    expect(dark.windows[0].options.backgroundColor).toBe(ground.dark);
    const light = await startOn({ dark: false });
    expect(light.windows[0].options.backgroundColor).toBe(ground.light);
  });

  it('changes its ground when staff switch the appearance, and stops listening once closed', async () => {
    const ground = screensGround();
    const fake = await startOn({ dark: false });
    const window = fake.windows[0];
    fake.nativeTheme.switchTo(true);
    expect(window.setBackgroundColor).toHaveBeenLastCalledWith(ground.dark);
    fake.nativeTheme.switchTo(false);
    expect(window.setBackgroundColor).toHaveBeenLastCalledWith(ground.light);
    window.emit('closed');
    expect(fake.nativeTheme.listeners).toEqual([]);
  });
});
