import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from './helpers/cli.ts';

// Issue 66 §4: the layering holds only for the folders LAYERS names. A folder of src/ it leaves out gets
// no layer's rule at all (a file there could import the drivers and the app), so each must be in it.

/** The folders directly under src/. */
function srcFolders(): string[] {
  return fs
    .readdirSync(path.join(REPO_ROOT, 'src'), { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
}

/** What is wrong between the folders and the layers: folders no layer holds, and layers naming no folder. */
function layering(folders: readonly string[], layers: readonly string[]) {
  return {
    inNoLayer: folders.filter((f) => !layers.includes(f)),
    noFolder: layers.filter((l) => !folders.includes(l)),
  };
}

/** The modules loose at src/'s root (issue 66 §5: src/ shows only rooms; a loose module would be in no layer). */
function looseModules(names: readonly string[]): string[] {
  return names.filter((n) => /\.(ts|tsx|js|mjs)$/.test(n));
}

async function layers(): Promise<readonly string[]> {
  const config = (await import(pathToFileURL(path.join(REPO_ROOT, 'eslint.config.js')).href)) as {
    LAYERS: readonly string[];
  };
  return config.LAYERS;
}

const eslint = new ESLint({ cwd: REPO_ROOT });
async function restricted(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(REPO_ROOT, file) });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('every folder of src/ is in a layer (eslint.config.js, LAYERS)', () => {
  it('the check finds a folder in no layer, and a layer with no folder', () => {
    expect(layering(['api', 'store', 'widgets'], ['store', 'api'])).toEqual({ inNoLayer: ['widgets'], noFolder: [] });
    expect(layering(['store'], ['store', 'gone'])).toEqual({ inNoLayer: [], noFolder: ['gone'] });
  });

  it('and finds nothing wrong in the tree', async () => {
    expect(looseModules(['errors.ts', 'store', 'README.md'])).toEqual(['errors.ts']);
    expect(looseModules(fs.readdirSync(path.join(REPO_ROOT, 'src')))).toEqual([]);
    const folders = srcFolders();
    expect(folders).toContain('pictures');
    expect(layering(folders, await layers())).toEqual({ inNoLayer: [], noFolder: [] });
  });

  it('so each folder gets its layer’s rule: no driver outside the store, no folder above it', async () => {
    const order = await layers();
    for (const folder of srcFolders()) {
      const file = `src/${folder}/x.ts`;
      if (folder !== 'store') expect(await restricted(file, "import 'pg';"), file).toHaveLength(1);
      const above = order[order.indexOf(folder) + 1];
      if (above !== undefined) expect(await restricted(file, `import '../${above}/x.ts';`), file).toHaveLength(1);
    }
    // What a folder in no layer would get: nothing refused.
    expect(await restricted('src/nowhere/x.ts', "import 'pg'; import '../app/core.ts';")).toEqual([]);
  });

  it('pictures sits above the store and the catalogue it reads, below the api and the app that start it', async () => {
    const file = 'src/pictures/x.ts';
    // The sample: each of these went unrefused while pictures was in no layer.
    for (const code of [
      "import 'better-sqlite3';",
      "import 'pg';",
      "import '../store/dialect.ts';",
      "import '../app/core.ts';",
      "import '../api/ports.ts';",
    ]) {
      expect(await restricted(file, code), code).toHaveLength(1);
    }
    expect(
      await restricted(file, "import '../store/picture-cache.ts'; import '../catalogue/item-numbers.ts';"),
    ).toEqual([]);
    expect(await restricted('src/api/x.ts', "import type { PicturePort } from '../pictures/port.ts';")).toEqual([]);
  });
});
