import fs from 'node:fs';
import path from 'node:path';
import { BrickWorkError } from '../src/vocabulary/errors.ts';

/**
 * The better-sqlite3 binary built for this Electron (scripts/native-electron.mjs puts it in
 * `native/electron-v<ABI>-<platform>-<arch>/`, beside the stamp `built-from.json` that says which ABI it
 * was actually built for; the packaged app has the one for its own arch, unpacked from the asar). Null
 * when there is none: then the installed binary is used as it is (in a checkout only: a packaged app
 * without one refuses to start, see `startApp`).
 *
 * A binary built for another ABI is never loaded — its stamp says so, or, without a stamp, the binary
 * itself (the `node_register_module_v<ABI>` it exports); a stamp of an earlier build that names no ABI is
 * not trusted either. It is refused with a plain message saying how to build the right one, instead of
 * Node's "compiled against a different Node.js version" from deep inside better-sqlite3.
 */
export function electronNativeBinding(
  appRoot: string,
  abi: string = process.versions.modules,
  platform = process.platform,
  arch = process.arch,
): string | null {
  const dir = `electron-v${abi}-${platform}-${arch}`;
  const refused: string[] = [];
  for (const root of [appRoot.replace(/app\.asar$/, 'app.asar.unpacked'), appRoot]) {
    const file = path.join(root, 'native', dir, 'better_sqlite3.node');
    if (!fs.existsSync(file)) continue;
    const built = builtAbi(file, path.join(root, 'native', dir, 'built-from.json'));
    if (built === abi || built === undefined) return file;
    refused.push(
      `${file} was built for ${built === null ? 'an ABI its built-from.json does not name' : `ABI ${built}`}`,
    );
  }
  if (refused.length > 0)
    throw new BrickWorkError(
      'internal',
      `The SQLite library built for this Electron (ABI ${abi}, ${platform}-${arch}) is not the right one: ` +
        `${refused.join('; ')}. Run  npm start  (or  npm run dist) again to build it.`,
    );
  const otherArch = builtForOtherArch(appRoot, abi, platform, arch);
  if (otherArch !== null)
    throw new BrickWorkError(
      'internal',
      `The SQLite library was built for Electron on ${platform}-${otherArch}, but this Electron runs as ` +
        `${platform}-${arch} (a Node.js of the other arch built it: an x64 Node.js under Rosetta, on Apple silicon). ` +
        `Run  npm start  again: it builds for Electron's own arch.`,
    );
  return null;
}

/** The arch of a binary built for this ABI and platform but another arch (none for this one), or null. */
function builtForOtherArch(appRoot: string, abi: string, platform: string, arch: string): string | null {
  const prefix = `electron-v${abi}-${platform}-`;
  for (const root of [appRoot.replace(/app\.asar$/, 'app.asar.unpacked'), appRoot]) {
    const folder = path.join(root, 'native');
    if (!fs.existsSync(folder)) continue;
    const other = fs
      .readdirSync(folder)
      .find(
        (name) =>
          name.startsWith(prefix) &&
          name !== `${prefix}${arch}` &&
          fs.existsSync(path.join(folder, name, 'better_sqlite3.node')),
      );
    if (other !== undefined) return other.slice(prefix.length);
  }
  return null;
}

/**
 * The ABI a binary was built for: as its stamp says (null when the stamp names none); without a stamp, as
 * the binary's own `node_register_module_v<ABI>` export says (undefined when it names none).
 */
export function builtAbi(file: string, stampFile: string): string | null | undefined {
  if (fs.existsSync(stampFile)) {
    try {
      const stamp = JSON.parse(fs.readFileSync(stampFile, 'utf8')) as { abi?: unknown };
      return typeof stamp.abi === 'string' ? stamp.abi : null;
    } catch {
      return null;
    }
  }
  return /node_register_module_v(\d+)/.exec(fs.readFileSync(file).toString('latin1'))?.[1];
}
