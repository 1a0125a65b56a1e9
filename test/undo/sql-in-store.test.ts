import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/cli.ts';

// Issue 50 §2: the job queue's and the undo history's statements live in src/store, which also settles
// the engine; src/jobs and src/undo call its functions and hold no SQL.
describe('the job queue and the undo history hold no SQL', () => {
  const SQL =
    /\.prepare\(|\.exec\(`|\.exec\('|\.pragma\(|onServer|runLater|rowsLater|OfJson|PostgresDatabase|isServerAddress|SELECT |INSERT |UPDATE |DELETE /;

  it.each(['src/jobs', 'src/undo'])('%s', (folder) => {
    const found: string[] = [];
    for (const name of fs.readdirSync(path.join(REPO_ROOT, folder), { recursive: true, encoding: 'utf8' })) {
      if (!name.endsWith('.ts')) continue;
      const lines = fs.readFileSync(path.join(REPO_ROOT, folder, name), 'utf8').split('\n');
      for (const [i, line] of lines.entries())
        if (SQL.test(line)) found.push(`${folder}/${name}:${i + 1}: ${line.trim()}`);
    }
    expect(found).toEqual([]);
  });
});
