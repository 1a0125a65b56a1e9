import fs from 'node:fs';
import path from 'node:path';

/**
 * The better-sqlite3 binary built for this Electron (scripts/native-electron.mjs puts it in
 * `native/electron-v<ABI>-<platform>-<arch>/`; the packaged app has it unpacked from the asar). Null
 * when there is none: then the installed binary is used as it is.
 */
export function electronNativeBinding(
  appRoot: string,
  abi: string = process.versions.modules,
  platform = process.platform,
  arch = process.arch,
): string | null {
  const dir = `electron-v${abi}-${platform}-${arch}`;
  for (const root of [appRoot.replace(/app\.asar$/, 'app.asar.unpacked'), appRoot]) {
    const file = path.join(root, 'native', dir, 'better_sqlite3.node');
    if (fs.existsSync(file)) return file;
  }
  return null;
}
