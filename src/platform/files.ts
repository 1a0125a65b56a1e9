import fs from 'node:fs';
import path from 'node:path';

/** Writes `text` to `file` so that readers see the old content or the new, never a part: temp file, fsync, rename. */
export function writeFileAtomically(file: string, text: string | Uint8Array): void {
  const temp = `${file}.${process.pid}.tmp`;
  const fd = fs.openSync(temp, 'w', 0o644);
  try {
    fs.writeFileSync(fd, text);
    fs.fsyncSync(fd);
  } catch (e) {
    // A write cut off (a full disk): leave no half file, and name the file the error is about.
    fs.closeSync(fd);
    fs.rmSync(temp, { force: true });
    (e as NodeJS.ErrnoException).path ??= file;
    throw e;
  }
  fs.closeSync(fd);
  fs.renameSync(temp, file);
  const dir = fs.openSync(path.dirname(file), 'r');
  try {
    fs.fsyncSync(dir);
  } finally {
    fs.closeSync(dir);
  }
}
