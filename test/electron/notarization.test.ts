import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/cli.ts';
import { tempDir } from '../helpers/temp.ts';

const pkg = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as {
  scripts: Record<string, string>;
};

/** The first step of `npm run dist:mac:release`, with exactly these of Apple's variables (none of this machine's). */
function releaseCheck(apple: Record<string, string>) {
  const [first] = pkg.scripts['dist:mac:release']!.split(' && ');
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^APPLE_/.test(k)));
  return spawnSync('sh', ['-c', first!], { cwd: REPO_ROOT, env: { ...env, ...apple }, encoding: 'utf8' });
}

describe('npm run dist:mac:release refuses to make a dmg that is not notarized (issue 63 §3)', () => {
  it('is its first step: nothing is built before the check', () => {
    expect(pkg.scripts['dist:mac:release']).toMatch(
      /^node scripts\/check-notarization\.mjs && node scripts\/check-electron\.mjs && /,
    );
  });

  it('without Apple’s notarization settings: refuses in words before building, naming the three ways', () => {
    const r = releaseCheck({});
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(
      /^brick-work: a release build must be notarized, and none of Apple’s notarization settings is set\. Nothing was built\.\n/,
    );
    for (const name of [
      'APPLE_ID, APPLE_APP_SPECIFIC_PASSWORD and APPLE_TEAM_ID',
      'APPLE_API_KEY (the path of the .p8 file), APPLE_API_KEY_ID and APPLE_API_ISSUER',
      'APPLE_KEYCHAIN_PROFILE',
      'npm run dist:mac ',
    ])
      expect(r.stderr).toContain(name);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('a set half given is refused naming what is missing (electron-builder would fail only after building)', () => {
    const key = path.join(tempDir(), 'AuthKey_ABC123.p8');
    fs.writeFileSync(key, 'key');
    const cases: [Record<string, string>, string][] = [
      [
        { APPLE_ID: 'shop@example.com', APPLE_TEAM_ID: 'T1' },
        'APPLE_ID and APPLE_TEAM_ID are set but not APPLE_APP_SPECIFIC_PASSWORD.',
      ],
      [{ APPLE_APP_SPECIFIC_PASSWORD: 'p' }, 'APPLE_APP_SPECIFIC_PASSWORD is set but not APPLE_ID and APPLE_TEAM_ID.'],
      [
        { APPLE_API_KEY: key, APPLE_API_ISSUER: 'i' },
        'APPLE_API_KEY and APPLE_API_ISSUER are set but not APPLE_API_KEY_ID.',
      ],
      [
        { APPLE_API_KEY: path.join(path.dirname(key), 'gone.p8'), APPLE_API_KEY_ID: 'k', APPLE_API_ISSUER: 'i' },
        `APPLE_API_KEY names ${path.join(path.dirname(key), 'gone.p8')}, which is not there.`,
      ],
      [{ APPLE_TEAM_ID: 'T1' }, 'APPLE_TEAM_ID is set but not APPLE_ID and APPLE_APP_SPECIFIC_PASSWORD.'],
      [{ APPLE_KEYCHAIN: 'login.keychain-db' }, 'APPLE_KEYCHAIN is set but not APPLE_KEYCHAIN_PROFILE.'],
      [
        { APPLE_ID: '', APPLE_APP_SPECIFIC_PASSWORD: '', APPLE_TEAM_ID: '' },
        'none of Apple’s notarization settings is set.',
      ],
    ];
    for (const [apple, said] of cases) {
      const r = releaseCheck(apple);
      expect(r.status, JSON.stringify(apple)).toBe(1);
      expect(r.stderr).toContain(`a release build must be notarized, and ${said} Nothing was built.`);
    }
  });

  it('goes on with any whole set electron-builder notarizes with', () => {
    const key = path.join(tempDir(), 'AuthKey_ABC123.p8');
    fs.writeFileSync(key, 'key');
    const sets: Record<string, string>[] = [
      { APPLE_ID: 'shop@example.com', APPLE_APP_SPECIFIC_PASSWORD: 'abcd-efgh-ijkl-mnop', APPLE_TEAM_ID: 'T1' },
      { APPLE_API_KEY: key, APPLE_API_KEY_ID: 'ABC123', APPLE_API_ISSUER: '69a6de70-0000-0000-0000-000000000000' },
      { APPLE_KEYCHAIN_PROFILE: 'brick-work' },
      { APPLE_KEYCHAIN_PROFILE: 'brick-work', APPLE_KEYCHAIN: 'login.keychain-db' },
    ];
    for (const apple of sets) {
      const r = releaseCheck(apple);
      expect([r.status, r.stderr], JSON.stringify(Object.keys(apple))).toEqual([0, '']);
    }
  });

  it('a local build (dist:mac) is not held to it', () => {
    expect(pkg.scripts['dist:mac']).not.toContain('check-notarization');
  });
});
