import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveStorePath, userDataDir } from '../../src/store/paths.ts';
import { APP_VERSION } from '../../src/platform/version.ts';
import { REPO_ROOT } from '../helpers/cli.ts';

describe('where the store lives', () => {
  it("is the app's user-data folder on each platform, as Electron names it for brick-work", () => {
    expect(userDataDir({}, 'darwin', '/Users/ann')).toBe('/Users/ann/Library/Application Support/brick-work');
    expect(userDataDir({ APPDATA: 'C:\\Users\\ann\\AppData\\Roaming' }, 'win32', 'C:\\Users\\ann')).toBe(
      path.join('C:\\Users\\ann\\AppData\\Roaming', 'brick-work'),
    );
    expect(userDataDir({ XDG_CONFIG_HOME: '/srv/conf' }, 'linux', '/home/ann')).toBe('/srv/conf/brick-work');
    expect(userDataDir({}, 'linux', '/home/ann')).toBe('/home/ann/.config/brick-work');
    expect(userDataDir({ XDG_CONFIG_HOME: 'relative' }, 'linux', '/home/ann')).toBe('/home/ann/.config/brick-work');
  });

  it('is --db, else BRICK_WORK_DB, else brick-work.sqlite in that folder', () => {
    expect(resolveStorePath('/a/b.sqlite', { BRICK_WORK_DB: '/c/d.sqlite' })).toBe('/a/b.sqlite');
    expect(resolveStorePath(undefined, { BRICK_WORK_DB: '/c/d.sqlite' })).toBe('/c/d.sqlite');
    expect(resolveStorePath(undefined, { XDG_CONFIG_HOME: '/x' })).toBe(
      process.platform === 'linux' ? '/x/brick-work/brick-work.sqlite' : path.join(userDataDir(), 'brick-work.sqlite'),
    );
  });

  it('belongs to version 0.9.0 of brick-work, as package.json says', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as {
      name: string;
      version: string;
    };
    expect(pkg).toMatchObject({ name: 'brick-work', version: APP_VERSION });
    expect(APP_VERSION).toBe('0.9.0');
  });
});
