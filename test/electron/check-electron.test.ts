import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/cli.ts';
import { needs } from '../helpers/needs.ts';
import { tempDir } from '../helpers/temp.ts';

/** `npm start` and `npm run dist` begin with this check (package.json). */
function check(env: NodeJS.ProcessEnv) {
  return spawnSync(process.execPath, [path.join(REPO_ROOT, 'scripts', 'check-electron.mjs')], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env },
    encoding: 'utf8',
  });
}

describe('npm start without the Electron binary', () => {
  const binaryHere = (() => {
    const dir = path.join(REPO_ROOT, 'node_modules', 'electron');
    const pathFile = path.join(dir, 'path.txt');
    return fs.existsSync(pathFile) && fs.existsSync(path.join(dir, 'dist', fs.readFileSync(pathFile, 'utf8').trim()));
  })();

  it.runIf(needs(!binaryHere, 'a machine without the Electron binary (this one has it)', 'the missing-binary message'))(
    "has Electron's own installer fetch it, and where that can't (no GitHub here) says so in plain words, with no stack trace",
    () => {
      const r = check({ ELECTRON_OVERRIDE_DIST_PATH: '' });
      expect(r.status).toBe(1);
      expect(r.stdout).toBe('');
      const [fetching, said, ...rest] = r.stderr.split('\n');
      expect(fetching).toMatch(/^brick-work: fetching the Electron binary from GitHub/);
      expect(said).toMatch(
        /^brick-work: the Electron binary is not installed, and Electron's installer could not fetch it from GitHub \(.+\)\.$/,
      );
      expect(rest.join('\n')).toContain('npm run serve');
      expect(r.stderr).not.toMatch(/\n\s+at |Downloading/);
    },
  );

  /** A folder laid out as the electron package, and an installer standing in for its install.js (issue 44). */
  const standIn = (fetches: boolean) => {
    const dir = tempDir('brick-work-electron-');
    fs.writeFileSync(path.join(dir, 'package.json'), '{"name":"electron","version":"45.5.0"}');
    const installer = path.join(dir, 'stand-in-install.js');
    fs.writeFileSync(
      installer,
      fetches
        ? "const fs = require('fs'); fs.mkdirSync('dist'); fs.writeFileSync('dist/electron', ''); fs.writeFileSync('path.txt', 'electron');"
        : "console.error('Error: getaddrinfo ENOTFOUND github.com'); console.error('    at GetAddrInfoReqWrap.onlookup'); process.exit(1);",
    );
    return { BRICK_WORK_ELECTRON_DIR: dir, BRICK_WORK_ELECTRON_INSTALLER: installer, ELECTRON_OVERRIDE_DIST_PATH: '' };
  };

  it('a fresh machine that reaches GitHub: the installer fetches the binary, and the start goes on', () => {
    const env = standIn(true);
    const r = check(env);
    expect(r.stderr).toMatch(/^brick-work: fetching the Electron binary from GitHub/);
    expect(r.status, r.stderr).toBe(0);
    expect(fs.existsSync(path.join(env.BRICK_WORK_ELECTRON_DIR, 'dist', 'electron'))).toBe(true);
    // Fetched once: the next start finds it and says nothing.
    const again = check(env);
    expect([again.status, again.stderr]).toEqual([0, '']);
  });

  it("where the installer can't reach GitHub: one plain message naming why, then what to do", () => {
    const r = check(standIn(false));
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(
      "brick-work: the Electron binary is not installed, and Electron's installer could not fetch it from GitHub (getaddrinfo ENOTFOUND github.com).",
    );
    expect(r.stderr).toContain('npm run serve');
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('goes on when the binary is there', () => {
    expect(check({ ELECTRON_OVERRIDE_DIST_PATH: path.join(REPO_ROOT, 'node_modules', 'electron') }).status).toBe(0);
  });

  it('is the first thing npm start and npm run dist do', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    for (const s of ['start', 'dist', 'dist:mac'])
      expect(pkg.scripts[s]).toMatch(/^node scripts\/check-electron\.mjs && /);
  });
});

describe('npm start behind a proxy (Electron’s downloader, @electron/get 5, uses one only when ELECTRON_GET_USE_PROXY is set)', () => {
  /**
   * The check with Electron's real installer and downloader, in a copy of the electron package with no
   * binary (so it runs whether or not this machine has one), fetching from a mirror whose name can never
   * resolve (.invalid): nothing is downloaded, wherever this runs. A proxy on 127.0.0.1 notes each
   * tunnel it is asked for and refuses it.
   */
  async function behindAProxy(env: NodeJS.ProcessEnv) {
    const electron = path.join(REPO_ROOT, 'node_modules', 'electron');
    const dir = tempDir('brick-work-electron-');
    for (const f of ['install.js', 'package.json', 'checksums.json'])
      fs.copyFileSync(path.join(electron, f), path.join(dir, f));
    const tunnels: string[] = [];
    const proxy = http.createServer((_req, res) => res.writeHead(403).end());
    proxy.on('connect', (req, socket) => {
      tunnels.push(req.url ?? '');
      socket.end('HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n');
    });
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
    const address = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    const base = Object.fromEntries(
      Object.entries(process.env).filter(
        ([k]) => !/^(https?_proxy|no_proxy|electron_|npm_config_electron|npm_package_config_electron)/i.test(k),
      ),
    );
    try {
      const child = spawn(process.execPath, [path.join(REPO_ROOT, 'scripts', 'check-electron.mjs')], {
        cwd: REPO_ROOT,
        env: {
          ...base,
          NODE_PATH: path.join(REPO_ROOT, 'node_modules'), // the copy's install.js finds @electron/get there
          BRICK_WORK_ELECTRON_DIR: dir,
          ELECTRON_MIRROR: 'https://electron-mirror.invalid/',
          electron_config_cache: tempDir('brick-work-electron-cache-'),
          ...Object.fromEntries(Object.entries(env).map(([k, v]) => [k, String(v).replace('PROXY', address)])),
        },
      });
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      const status = await new Promise<number | null>((r) => child.on('close', r));
      return { status, stderr, tunnels, binary: fs.existsSync(path.join(dir, 'dist')) };
    } finally {
      proxy.close();
    }
  }

  it('the words the check gives (ELECTRON_GET_USE_PROXY=1 and HTTPS_PROXY) reach the proxy', async () => {
    const r = await behindAProxy({ ELECTRON_GET_USE_PROXY: '1', HTTPS_PROXY: 'PROXY' });
    expect([...new Set(r.tunnels)]).toEqual(['electron-mirror.invalid:443']);
    expect(r.status).toBe(1);
    expect(r.binary).toBe(false);
    expect(r.stderr).toContain('  ELECTRON_GET_USE_PROXY=1 HTTPS_PROXY=http://proxy.example:3128 npm start');
    expect(r.stderr).not.toMatch(/is set here, but without ELECTRON_GET_USE_PROXY/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('HTTPS_PROXY alone reaches nothing, and the check says why', async () => {
    const r = await behindAProxy({ HTTPS_PROXY: 'PROXY' });
    expect(r.tunnels).toEqual([]);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(
      '(HTTPS_PROXY is set here, but without ELECTRON_GET_USE_PROXY the downloader did not use it.)',
    );
    const setup = fs.readFileSync(path.join(REPO_ROOT, 'docs', 'setup.md'), 'utf8');
    expect(setup).toContain('ELECTRON_GET_USE_PROXY=1 HTTPS_PROXY=http://proxy.example:3128 npm start');
    expect(setup).not.toMatch(/set `HTTPS_PROXY` or/);
  });
});

describe('npm start and npm run dist on a Node.js without require(esm) (Electron 45’s installer needs it)', () => {
  /** The check, run by a Node.js that says it is `version` (process.version is all the check reads). */
  const checkAs = (script: string, version: string, env: NodeJS.ProcessEnv = {}) =>
    spawnSync(
      process.execPath,
      [
        '--import',
        `data:text/javascript,Object.defineProperty(process.versions,'node',{value:'${version}'});Object.defineProperty(process,'version',{value:'v${version}'});`,
        path.join(REPO_ROOT, 'scripts', script),
      ],
      { cwd: REPO_ROOT, env: { ...process.env, ...env }, encoding: 'utf8' },
    );
  // The binary "is there", so only the version can stop the check.
  const binary = { ELECTRON_OVERRIDE_DIST_PATH: path.join(REPO_ROOT, 'node_modules', 'electron') };

  it('stops first, in plain words, saying which Node.js to install', () => {
    for (const version of ['22.11.0', '22.0.0', '21.7.3', '20.18.3', '18.20.8']) {
      const r = checkAs('check-electron.mjs', version, binary);
      expect(r.status, version).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(
        new RegExp(`^brick-work: Node\\.js ${version.replace(/\./g, '\\.')} can't install or start Electron 45`),
      );
      expect(r.stderr).toContain('Install Node.js 22.12 or later');
      expect(r.stderr).toContain('20.19 or later');
      expect(r.stderr).not.toMatch(/\n\s+at |Error:|ERR_REQUIRE_ESM|could not be fetched/);
    }
  });

  it('goes on with 20.19 and later 20s, 22.12 and later', () => {
    for (const version of ['20.19.0', '20.20.2', '22.12.0', '23.0.0', '24.11.1'])
      expect(checkAs('check-electron.mjs', version, binary).status, version).toBe(0);
  });

  it('the native build checks it too, and package.json and the README say the same range', () => {
    const r = checkAs('native-electron.mjs', '22.4.1');
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/^brick-work: Node\.js 22\.4\.1 can't install or start Electron 45/);
    const pkg = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as {
      engines: { node: string };
    };
    expect(pkg.engines.node).toBe('^20.19 || >=22.12');
    const readme = fs.readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8');
    expect(readme).toMatch(/Node\.js 22\.12 or later, or 20\.19 or later/);
  });
});

describe('the Mac’s set-up (docs/mac.md) leaves a supported Node.js on the PATH (Homebrew’s node@22 is keg-only)', () => {
  it('its PATH line, run as written, puts node@22 first for every new shell: `node -v` answers from it', () => {
    const mac = fs.readFileSync(path.join(REPO_ROOT, 'docs', 'mac.md'), 'utf8');
    const line = /^echo .*node@22.* >> ~\/\.zprofile$/m.exec(mac)?.[0];
    expect(line).toBeDefined();
    expect(mac).toContain(`${line}\nsource ~/.zprofile\nnode -v`);
    // A Mac stood in: a home, and Homebrew's `brew` answering where its keg-only node@22 is (not linked).
    const home = tempDir();
    const keg = path.join(home, 'homebrew', 'opt', 'node@22');
    const brewBin = path.join(home, 'homebrew', 'bin');
    fs.mkdirSync(path.join(keg, 'bin'), { recursive: true });
    fs.mkdirSync(brewBin, { recursive: true });
    fs.writeFileSync(path.join(keg, 'bin', 'node'), '#!/bin/sh\necho v22.12.0\n', { mode: 0o755 });
    fs.writeFileSync(
      path.join(brewBin, 'brew'),
      `#!/bin/sh\n[ "$1 $2" = "--prefix node@22" ] && echo ${JSON.stringify(keg)} && exit 0\nexit 1\n`,
      { mode: 0o755 },
    );
    const written = spawnSync('bash', ['-c', line!], {
      env: { HOME: home, PATH: `${brewBin}:/usr/bin:/bin` },
      encoding: 'utf8',
    });
    expect(written.status, written.stderr).toBe(0);
    // A new terminal, without brew on its PATH: the profile names the keg itself.
    const shell = spawnSync('bash', ['-c', '. "$HOME/.zprofile" && command -v node && node -v'], {
      env: { HOME: home, PATH: '/usr/bin:/bin' },
      encoding: 'utf8',
    });
    expect(shell.stdout).toBe(`${path.join(keg, 'bin', 'node')}\nv22.12.0\n`);
  });
});
