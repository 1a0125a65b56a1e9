/**
 * The browser tests' shortcut keys (issue 63 §1): under a Mac's user agent the page takes ⌘, elsewhere Ctrl
 * (renderer/shortcuts.ts), so `pressShortcut` presses what the page expects. Checked in Chromium under both
 * user agents: the key events the browser gives a page, read by the app's own rules.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { historyCommand, isOpenShortcut, type KeyPress } from '../../renderer/shortcuts.ts';
import { hasChromium, launchBrowser, MAC_USER_AGENT, NEEDS_CHROMIUM } from '../helpers/browser.ts';
import { needs } from '../helpers/needs.ts';
import { pagePlatform, pressShortcut, type Shortcut } from '../helpers/shortcut-keys.ts';

/** A page that keeps every keydown it is given (the modifiers' own keydowns are not shortcuts). */
async function keyPage(browser: Awaited<ReturnType<typeof launchBrowser>>): Promise<Page> {
  const page = await browser.context.newPage();
  await page.setContent('<body tabindex="0">keys</body>');
  await page.evaluate(`(() => {
    window.presses = [];
    document.addEventListener('keydown', (e) => {
      if (!['Meta', 'Control', 'Shift', 'Alt'].includes(e.key))
        window.presses.push({ key: e.key, metaKey: e.metaKey, ctrlKey: e.ctrlKey, shiftKey: e.shiftKey, altKey: e.altKey });
    });
  })()`);
  await page.locator('body').focus();
  return page;
}

/** The one key press a page got for `press`. */
async function pressed(page: Page, press: () => Promise<void>): Promise<KeyPress> {
  await page.evaluate('window.presses = []');
  await press();
  const presses = (await page.evaluate('window.presses')) as KeyPress[];
  expect(presses).toHaveLength(1);
  return presses[0] as KeyPress;
}

/** What the app makes of a key press: its history command, or open. */
function taken(press: KeyPress, platform: 'mac' | 'other'): string | null {
  return isOpenShortcut(press, platform) ? 'open' : historyCommand(press, platform);
}

/** Chrome's user agent on Linux (on a Mac, headless Chrome's own would be a Mac's). */
const LINUX_USER_AGENT =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/141.0.0.0 Safari/537.36';

const SHORTCUTS: [Shortcut, string][] = [
  ['undo', 'undo'],
  ['redo', 'redo'],
  ['redo (Ctrl+Y)', 'redo'],
  ['open', 'open'],
];

describe.runIf(needs(hasChromium(), NEEDS_CHROMIUM, 'the shortcut keys in Chromium'))(
  'the shortcut keys the browser tests press',
  () => {
    let linux: Awaited<ReturnType<typeof launchBrowser>>;
    let mac: Awaited<ReturnType<typeof launchBrowser>>;

    beforeAll(async () => {
      linux = await launchBrowser({ userAgent: LINUX_USER_AGENT });
      mac = await launchBrowser({ userAgent: MAC_USER_AGENT });
    });

    afterAll(async () => {
      await linux?.close();
      await mac?.close();
    });

    it('under a Mac’s user agent: ⌘, which the page takes; Ctrl does nothing there', async () => {
      const page = await keyPage(mac);
      expect(await pagePlatform(page)).toBe('mac');
      for (const [shortcut, command] of SHORTCUTS) {
        const press = await pressed(page, () => pressShortcut(page, shortcut));
        expect(press, shortcut).toMatchObject({ metaKey: true, ctrlKey: false });
        expect(taken(press, 'mac'), shortcut).toBe(command);
      }
      // Why the tests need the helper: what they pressed before is nothing to a Mac's page.
      for (const keys of ['Control+z', 'Control+Shift+z', 'Control+y', 'Control+o'])
        expect(taken(await pressed(page, () => page.keyboard.press(keys)), 'mac'), keys).toBeNull();
    });

    it('under any other user agent: Ctrl, which the page takes; ⌘ does nothing there', async () => {
      const page = await keyPage(linux);
      expect(await pagePlatform(page)).toBe('other');
      for (const [shortcut, command] of SHORTCUTS) {
        const press = await pressed(page, () => pressShortcut(page, shortcut));
        expect(press, shortcut).toMatchObject({ metaKey: false, ctrlKey: true });
        expect(taken(press, 'other'), shortcut).toBe(command);
      }
      expect(taken(await pressed(page, () => page.keyboard.press('Meta+z')), 'other')).toBeNull();
    });
  },
);
