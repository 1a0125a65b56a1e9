import { describe, expect, it } from 'vitest';
import { chromiumPath, chromiumPlaces } from './helpers/browser.ts';
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
