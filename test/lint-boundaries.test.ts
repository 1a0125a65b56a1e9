import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from './helpers/cli.ts';

const eslint = new ESLint({ cwd: REPO_ROOT });

async function restricted(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(REPO_ROOT, file) });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('import boundaries (DEVELOPERS.md)', () => {
  it('keep electron, better-sqlite3, src/store and Node modules out of the renderer', async () => {
    expect(await restricted('renderer/x.ts', "import 'electron';")).toHaveLength(1);
    expect(await restricted('renderer/x.ts', "import 'better-sqlite3';")).toHaveLength(1);
    expect(await restricted('renderer/x.ts', "import '../src/store/open.ts';")).toHaveLength(1);
    expect(await restricted('renderer/x.ts', "import 'node:fs';")).toHaveLength(1);
    expect(await restricted('renderer/x.ts', "import { undoShortcut } from './shortcuts.ts'; undoShortcut('mac');")).toEqual([]);
  });

  it('let only electron/ import electron', async () => {
    expect(await restricted('src/x.ts', "import 'electron';")).toHaveLength(1);
    expect(await restricted('test/x.ts', "import 'electron';")).toHaveLength(1);
    expect(await restricted('electron/main.ts', "import 'electron';")).toEqual([]);
  });

  it('keep the core free of the app shells', async () => {
    expect(await restricted('src/x.ts', "import '../renderer/shortcuts.ts';")).toHaveLength(1);
  });
});
