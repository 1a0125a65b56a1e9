import { describe, expect, it } from 'vitest';
import { CHROMIUM_PLACES, chromiumPath } from './helpers/browser.ts';
import { NEEDS_CHROMIUM, NEEDS_POSTGRES } from './helpers/needs.ts';

/** Issue 44, point 4: the browser tests find a Chromium on a developer's Mac too, and the skips say how to get one. */
describe('where the browser tests find Chromium', () => {
  const only =
    (...present: string[]) =>
    (file: string) =>
      present.includes(file);

  it('BRICK_WORK_CHROMIUM first, when it is there', () => {
    expect(chromiumPath({ BRICK_WORK_CHROMIUM: '/x/chrome' }, only('/x/chrome', '/usr/bin/chromium'))).toBe(
      '/x/chrome',
    );
    expect(chromiumPath({ BRICK_WORK_CHROMIUM: '/x/gone' }, only('/usr/bin/chromium'))).toBeNull();
  });

  it("Debian's, then a Mac's Chromium or Chrome", () => {
    expect(chromiumPath({}, only('/usr/bin/chromium'))).toBe('/usr/bin/chromium');
    expect(chromiumPath({}, only('/Applications/Chromium.app/Contents/MacOS/Chromium'))).toBe(
      '/Applications/Chromium.app/Contents/MacOS/Chromium',
    );
    expect(chromiumPath({}, only('/Applications/Google Chrome.app/Contents/MacOS/Google Chrome'))).toBe(
      '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
    );
    expect(chromiumPath({}, only())).toBeNull();
    expect(CHROMIUM_PLACES[0]).toBe('/usr/bin/chromium');
  });

  it('a skip names how to get each on Debian and on a Mac', () => {
    expect(NEEDS_CHROMIUM).toMatch(/apt-get install -y chromium.*brew install --cask chromium.*BRICK_WORK_CHROMIUM/);
    expect(NEEDS_POSTGRES).toMatch(/apt-get install -y postgresql.*brew install postgresql/);
  });
});
