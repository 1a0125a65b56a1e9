/**
 * The documents a soak worker imports (`test/helpers/soak-imports.ts` writes them): each file with the
 * document keys it holds, and the choice of the next one to import — shared by the import worker and
 * the PostgreSQL kind's desks.
 */
import fs from 'node:fs';
import path from 'node:path';

export interface SoakFile {
  readonly name: string;
  readonly content: Uint8Array;
  /** Its documents' keys (`<file>.keys`, one a line). */
  readonly keys: readonly string[];
}

export function readSoakFiles(dir: string): SoakFile[] {
  return fs
    .readdirSync(dir)
    .filter((f) => !f.endsWith('.keys'))
    .sort()
    .map((name) => ({
      name,
      content: new Uint8Array(fs.readFileSync(path.join(dir, name))),
      keys: fs
        .readFileSync(path.join(dir, `${name}.keys`), 'utf8')
        .split('\n')
        .filter(Boolean),
    }));
}

const pick = <T>(list: readonly T[]): T | undefined => list[Math.floor(Math.random() * list.length)];

/**
 * Mostly a file none of whose documents is imported now (a new one or a revival); now and then any
 * file, which may be refused as a duplicate — or race another worker importing it.
 */
export function chooseFile(files: readonly SoakFile[], imported: (key: string) => boolean): SoakFile | undefined {
  const free = files.filter((f) => f.keys.every((k) => !imported(k)));
  return (Math.random() < 0.85 ? pick(free) : undefined) ?? pick(files);
}
