/**
 * The app's keyboard shortcuts as a browser test presses them: the keys the page expects, which it tells
 * from its user agent (renderer/shortcuts.ts, SPEC §9) — ⌘ under a Mac's, Ctrl under any other. A test that
 * pressed Control+z would do nothing on a Mac (issue 63).
 */
import type { Page } from 'playwright-core';
import { platformOf, type Platform } from '../../renderer/shortcuts.ts';

/**
 * What a test asks for. 'redo (Ctrl+Y)': redo by the other keys Windows and Linux desktops have for it,
 * Ctrl+Y; on a Mac, which has only ⇧⌘Z, that.
 */
export type Shortcut = 'undo' | 'redo' | 'redo (Ctrl+Y)' | 'open';

/** The key held with a shortcut's letter: ⌘ (Playwright's Meta) on a Mac, Ctrl elsewhere. */
export function commandKey(platform: Platform): 'Meta' | 'Control' {
  return platform === 'mac' ? 'Meta' : 'Control';
}

/** The keys of a shortcut as Playwright's `keyboard.press` takes them. */
export function shortcutKeys(shortcut: Shortcut, platform: Platform): string {
  const mod = commandKey(platform);
  switch (shortcut) {
    case 'undo':
      return `${mod}+z`;
    case 'redo':
      return `${mod}+Shift+z`;
    case 'redo (Ctrl+Y)':
      return platform === 'mac' ? `${mod}+Shift+z` : `${mod}+y`;
    case 'open':
      return `${mod}+o`;
  }
}

/** The platform the page takes itself to be on, from its user agent, as the app does. */
export async function pagePlatform(page: Page): Promise<Platform> {
  return platformOf(String(await page.evaluate('navigator.userAgent')));
}

/** Presses a shortcut with the keys this page expects. */
export async function pressShortcut(page: Page, shortcut: Shortcut): Promise<void> {
  await page.keyboard.press(shortcutKeys(shortcut, await pagePlatform(page)));
}
