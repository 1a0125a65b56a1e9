import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { platformOf } from '../renderer/shortcuts.ts';
import { chromiumPath, chromiumPlaces, e2eUserAgent, MAC_USER_AGENT } from './helpers/browser.ts';
import { REPO_ROOT } from './helpers/cli.ts';
import { NEEDS_CHROMIUM, NEEDS_POSTGRES } from './helpers/needs.ts';

const CHROME = '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome';
const CHROMIUM_APP = '/Applications/Chromium.app/Contents/MacOS/Chromium';

/** Issue 44, point 4, and issue 63 §2: the browser tests find a Chromium on a developer's Mac too, and the skips say how to get one. */
describe('where the browser tests find Chromium', () => {
  const only =
    (...present: string[]) =>
    (file: string) =>
      present.includes(file);

  it('BRICK_WORK_CHROMIUM first, when it is there, on every platform', () => {
    for (const platform of ['linux', 'darwin'] as const) {
      expect(
        chromiumPath({ BRICK_WORK_CHROMIUM: '/x/chrome' }, only('/x/chrome', '/usr/bin/chromium', CHROME), platform),
      ).toBe('/x/chrome');
      expect(chromiumPath({ BRICK_WORK_CHROMIUM: '/x/gone' }, only('/usr/bin/chromium', CHROME), platform)).toBeNull();
    }
  });

  it('on a Mac, Google Chrome before Chromium.app (Homebrew’s Chromium is a snapshot macOS calls damaged)', () => {
    expect(chromiumPath({}, only(CHROMIUM_APP, CHROME), 'darwin')).toBe(CHROME);
    expect(chromiumPath({}, only(CHROMIUM_APP), 'darwin')).toBe(CHROMIUM_APP);
    expect(chromiumPath({}, only('/usr/bin/chromium'), 'darwin')).toBeNull();
    expect(chromiumPlaces('darwin')[0]).toBe(CHROME);
  });

  it('elsewhere, Debian’s', () => {
    expect(chromiumPath({}, only('/usr/bin/chromium', CHROME), 'linux')).toBe('/usr/bin/chromium');
    expect(chromiumPath({}, only('/usr/bin/chromium-browser'), 'linux')).toBe('/usr/bin/chromium-browser');
    expect(chromiumPath({}, only(), 'linux')).toBeNull();
  });

  it('a skip names how to get each on Debian and on a Mac', () => {
    expect(NEEDS_CHROMIUM).toMatch(/apt-get install -y chromium.*Google Chrome.*BRICK_WORK_CHROMIUM/);
    expect(NEEDS_CHROMIUM).not.toMatch(/--cask chromium/);
    expect(NEEDS_POSTGRES).toMatch(/apt-get install -y postgresql.*brew install postgresql/);
  });
});

// Issue 63 §1: the pages of the browser tests may be a Mac's (the simulated Mac run), which take ⌘ for Ctrl.
describe('the browser tests as a Mac’s page', () => {
  it('BRICK_WORK_E2E_UA=mac gives the pages a Mac’s user agent, which the app takes as a Mac’s; unset, the browser’s own', () => {
    expect(e2eUserAgent({ BRICK_WORK_E2E_UA: 'mac' })).toBe(MAC_USER_AGENT);
    expect(platformOf(MAC_USER_AGENT)).toBe('mac');
    expect(e2eUserAgent({})).toBeUndefined();
    expect(e2eUserAgent({ BRICK_WORK_E2E_UA: '' })).toBeUndefined();
    expect(() => e2eUserAgent({ BRICK_WORK_E2E_UA: 'macos' })).toThrow('BRICK_WORK_E2E_UA is "macos"');
  });

  it('no browser test presses Ctrl or ⌘ itself: pressShortcut presses what the page expects', () => {
    const walk = (dir: string): string[] =>
      fs
        .readdirSync(dir, { withFileTypes: true })
        .flatMap((e) =>
          e.isDirectory() ? walk(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : [],
        );
    const own = path.join(REPO_ROOT, 'test', 'e2e', 'shortcut-keys.test.ts'); // presses Ctrl to show it does nothing on a Mac
    const pressing = [...walk(path.join(REPO_ROOT, 'test')), ...walk(path.join(REPO_ROOT, 'bench'))]
      .filter((f) => f !== own)
      .filter((f) => /\.press\(\s*['"`](?:Control|Meta|ControlOrMeta)\+/.test(fs.readFileSync(f, 'utf8')))
      .map((f) => path.relative(REPO_ROOT, f));
    expect(pressing).toEqual([]);
  });
});
