/**
 * electron-builder run for real, offline (issue 44): `--linux dir` of a project made in a temporary
 * folder, with a stand-in Electron (`electronDist`) whose "binary" carries a fuse wire with Electron's
 * defaults — electron-builder downloads nothing then, and flips the fuses as it would on Electron's.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);

/** Where Electron's binary keeps its fuses (@electron/fuses). */
export const FUSE_SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX';

/** A folder standing in for Electron's own (`electronDist`): a "binary" with the default fuse wire. */
export function standInElectronDist(dir: string): string {
  const electronDist = path.join(dir, 'electron');
  fs.mkdirSync(electronDist, { recursive: true });
  const wire = Buffer.from([1, 8, ...Buffer.from('10110001')]); // v1, 8 fuses: Electron's defaults
  fs.writeFileSync(
    path.join(electronDist, 'electron'),
    Buffer.concat([Buffer.from('#!/bin/sh\n'), Buffer.from(FUSE_SENTINEL), wire, Buffer.from('\n')]),
    { mode: 0o755 },
  );
  return electronDist;
}

/** The archs brick-work is packaged for, as electron-builder names them. */
export type Arch = 'x64' | 'arm64';

/**
 * This machine's arch, which scripts/native-electron.mjs builds better-sqlite3 for: a package of this
 * machine's build is for it (x64 on Intel, arm64 on Apple silicon).
 */
export function machineArch(arch: string = process.arch): Arch {
  if (arch === 'x64' || arch === 'arm64') return arch;
  throw new Error(`brick-work is packaged for x64 and arm64, not for this machine's ${arch}`);
}

/**
 * Node's options that make a child's `process.platform` another build machine's. electron-builder expands
 * `${platform}` in the package's files to the platform it runs on (not the one it packages for), so a
 * test of what a Mac's build ships makes electron-builder take itself to be on a Mac.
 */
function onPlatform(platform: NodeJS.Platform): string[] {
  if (platform === process.platform) return [];
  const code = `Object.defineProperty(process, 'platform', { value: ${JSON.stringify(platform)} });`;
  return ['--import', `data:text/javascript,${encodeURIComponent(code)}`];
}

/**
 * Packages `project` (its package.json's `build`) for Linux as folders, one per arch, into `out`, on this
 * machine or as on a build machine of another `platform`.
 */
export function packageForLinux(
  project: string,
  options: { electronDist: string; out: string; archs: readonly Arch[]; platform?: NodeJS.Platform },
): ReturnType<typeof spawnSync> {
  return spawnSync(
    process.execPath,
    [
      ...onPlatform(options.platform ?? process.platform),
      require.resolve('electron-builder/cli.js'),
      '--linux',
      'dir',
      ...options.archs.map((a) => `--${a}`),
      '--publish',
      'never',
      `-c.electronDist=${options.electronDist}`,
      `-c.directories.output=${options.out}`,
    ],
    { cwd: project, encoding: 'utf8', timeout: 170_000, env: { ...process.env, CI: '1' } },
  );
}

/** The folder electron-builder makes for an arch's unpacked Linux app. */
export function linuxAppDir(out: string, arch: Arch): string {
  return path.join(out, arch === 'x64' ? 'linux-unpacked' : 'linux-arm64-unpacked');
}
