import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from './helpers/cli.ts';

const eslint = new ESLint({ cwd: REPO_ROOT });

async function restricted(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(REPO_ROOT, file) });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('import boundaries (docs/architecture.md, "Boundaries")', () => {
  it('keep electron, better-sqlite3, src/store and Node modules out of the renderer', async () => {
    expect(await restricted('renderer/x.ts', "import 'electron';")).toHaveLength(1);
    expect(await restricted('renderer/x.ts', "import 'better-sqlite3';")).toHaveLength(1);
    expect(await restricted('renderer/x.ts', "import '../src/store/open.ts';")).toHaveLength(1);
    expect(await restricted('renderer/x.ts', "import 'node:fs';")).toHaveLength(1);
    expect(
      await restricted('renderer/x.ts', "import { undoShortcut } from './shortcuts.ts'; undoShortcut('mac');"),
    ).toEqual([]);
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

describe('the core is layered: no folder imports one above it, so no two folders can need each other', () => {
  it('refuses an import of a higher folder, with the layering named', async () => {
    const [message] = await restricted(
      'src/store/x.ts',
      "import { placeItem } from '../placement/rule.ts'; placeItem;",
    );
    expect(message).toMatch(/src\/store\/ may not import .*placement.*the folders are layered/);
    // Type-only imports count too: a cycle of types is still two folders that need each other.
    expect(await restricted('src/jobs/x.ts', "import type { ApiCalls } from '../api/contract.ts';")).toHaveLength(1);
    expect(await restricted('src/errors.ts', "import { openStore } from './store/open.ts'; openStore;")).toHaveLength(
      1,
    );
  });

  it('so a cycle fails: placement → hand is refused where hand → placement is allowed', async () => {
    expect(await restricted('src/hand/x.ts', "import { placeItem } from '../placement/rule.ts'; placeItem;")).toEqual(
      [],
    );
    expect(
      await restricted('src/placement/x.ts', "import { placeByHand } from '../hand/placement.ts'; placeByHand;"),
    ).toHaveLength(1);
    // The cycles issue 12 found: api ↔ jobs, placement ↔ undo, store ↔ placement.
    expect(await restricted('src/jobs/x.ts', "import '../api/service.ts';")).toHaveLength(1);
    expect(await restricted('src/placement/x.ts', "import '../undo/history.ts';")).toHaveLength(1);
    expect(await restricted('src/store/x.ts', "import '../placement/rule.ts';")).toHaveLength(1);
  });

  it('lets the adapters on top use the service and everything below', async () => {
    expect(
      await restricted('src/cli/commands/x.ts', "import '../../api/service.ts'; import '../../app/core.ts';"),
    ).toEqual([]);
    expect(await restricted('src/host/x.ts', "import '../app/core.ts';")).toEqual([]);
  });
});
