import fs from 'node:fs';
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
    expect(await restricted('renderer/x.ts', "import 'pg';")).toHaveLength(1);
    expect(await restricted('renderer/x.ts', "import '../src/store/open.ts';")).toHaveLength(1);
    expect(await restricted('renderer/x.ts', "import 'node:fs';")).toHaveLength(1);
    expect(
      await restricted('renderer/x.ts', "import { undoShortcut } from './shortcuts.ts'; undoShortcut('mac');"),
    ).toEqual([]);
  });

  it('let only electron/ import electron', async () => {
    expect(await restricted('src/vocabulary/x.ts', "import 'electron';")).toHaveLength(1);
    expect(await restricted('test/x.ts', "import 'electron';")).toHaveLength(1);
    expect(await restricted('electron/main.ts', "import 'electron';")).toEqual([]);
  });

  it('keep the core free of the app shells', async () => {
    expect(await restricted('src/platform/x.ts', "import '../../renderer/shortcuts.ts';")).toHaveLength(1);
  });

  it('keep bench/ and scripts/ out of each other: what both need is in tools/ (issue 50)', async () => {
    expect(await restricted('bench/x.ts', "import '../scripts/soak.ts';")).toEqual([
      expect.stringContaining('bench/ may not import scripts/: what they share is in tools/.'),
    ]);
    expect(await restricted('scripts/x.ts', "import '../bench/data.ts';")).toHaveLength(1);
    expect(await restricted('tools/x.ts', "import '../bench/data.ts';")).toHaveLength(1);
    expect(await restricted('bench/x.ts', "import '../tools/quality-sets.ts';")).toEqual([]);
    expect(await restricted('scripts/x.ts', "import '../tools/quality-sets.ts';")).toEqual([]);
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
    expect(
      await restricted('src/vocabulary/errors.ts', "import { openStore } from '../store/open.ts'; openStore;"),
    ).toHaveLength(1);
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

  it('lets the adapters on top use the service and the composition root (not the folders below: issue 27)', async () => {
    // The CLI's service is made by its entry in src/app/ (issue 50): the rule that says so is below.
    expect(await restricted('src/cli/x.ts', "import '../api/contract.ts'; import '../app/cli-core.ts';")).toEqual([]);
    expect(await restricted('src/host/x.ts', "import '../api/service.ts'; import '../app/core.ts';")).toEqual([]);
  });

  it("keeps the CLI's contract commands to the contract: the store, the service and the adapter are the shell's", async () => {
    const commands = 'src/cli/commands/x.ts';
    expect(await restricted(commands, "import type { ApiCalls } from '../../api/contract.ts';")).toEqual([]);
    expect(await restricted(commands, "import { numberArg } from '../command.ts';")).toEqual([]);
    expect(await restricted(commands, "import { SETTING_KEYS } from '../../setting-keys.ts';")).toEqual([]);
    for (const forbidden of [
      "import { openStore } from '../../store/open.ts';",
      "import { createApiService } from '../../api/service.ts';",
      "import { checkArguments } from '../../api/validate.ts';",
      "import { cliApi } from '../adapter.ts';",
      "import { storeInfo } from '../shell/store.ts';",
      "import Database from 'better-sqlite3';",
    ]) {
      const [message] = await restricted(commands, forbidden);
      expect(message, forbidden).toMatch(/goes through the contract/);
    }
  });
});

describe("each table's writes live in one module (issue 12)", () => {
  // Tables written from more than one place drifted apart once (the catalogue_item upsert existed twice,
  // one without its no-op guard). The frozen upgrade steps keep their own SQL on purpose. The catalogue
  // is written by its module, row by row, and by its staged swap (ADR 0034), set-wise: both keep the guard.
  const CATALOGUE = ['src/store/catalogue-stage.ts', 'src/store/catalogue.ts'];
  const OWNERS: Record<string, string[]> = {
    catalogue_item: CATALOGUE,
    colour: CATALOGUE,
    category: CATALOGUE,
    job: ['src/store/jobs.ts'],
  };
  const sources = () => {
    const walk = (dir: string): string[] =>
      fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
        const p = path.join(dir, e.name);
        return e.isDirectory() ? (e.name === 'upgrades' ? [] : walk(p)) : p.endsWith('.ts') ? [p] : [];
      });
    return walk(path.join(REPO_ROOT, 'src')).map((file) => ({
      file: path.relative(REPO_ROOT, file),
      text: fs.readFileSync(file, 'utf8'),
    }));
  };

  it('inserts into the catalogue and the job queue only from their own modules', () => {
    const found: Record<string, string[]> = {};
    for (const { file, text } of sources())
      for (const table of Object.keys(OWNERS))
        if (new RegExp(`INSERT INTO ${table}\\b(?! *_)`).test(text)) (found[table] ??= []).push(file);
    for (const files of Object.values(found)) files.sort();
    expect(found).toEqual(OWNERS);
  });

  it("and every upsert of the catalogue's tables leaves a row that would not change alone", () => {
    const upserts = sources().flatMap(({ file, text }) =>
      [...text.matchAll(/INSERT INTO (catalogue_item|colour|category) \([^`]*?DO UPDATE[^`]*?`/g)].map((m) => ({
        file,
        sql: m[0],
      })),
    );
    expect(upserts.length).toBeGreaterThanOrEqual(4);
    for (const { file, sql } of upserts) expect(sql, file).toMatch(/\bWHERE [a-z_]+\.[a-z_]+ IS DISTINCT FROM/);
  });
});

// Issue 27, point 1: one composition root. The shells reach the core through the contract and src/app/ only.
describe('the shells reach the core through src/api/ and src/app/', () => {
  it('the CLI (adapter, runner, shell commands) and the browser host import nothing below them', async () => {
    for (const file of ['src/cli/adapter.ts', 'src/cli/run.ts', 'src/cli/shell/x.ts', 'src/host/main.ts']) {
      const [message] = await restricted(file, "import { openStore } from '../store/open.ts'; openStore;");
      expect(message, file).toMatch(/through src\/api\/ .* and src\/app\//);
      expect(await restricted(file, "import '../catalogue/load.ts';"), file).toHaveLength(1);
      expect(await restricted(file, "import '../jobs/runner.ts';"), file).toHaveLength(1);
      expect(await restricted(file, "import Database from 'better-sqlite3'; Database;"), file).toHaveLength(1);
      const entry = file.startsWith('src/cli/') ? '../app/store-place.ts' : '../app/core.ts';
      expect(await restricted(file, `import '${entry}'; import '../api/contract.ts';`), file).toEqual([]);
    }
  });

  it('electron/ too', async () => {
    expect(await restricted('electron/x.ts', "import '../src/store/paths.ts';")).toHaveLength(1);
    expect(await restricted('electron/x.ts', "import '../src/app/store-place.ts';")).toEqual([]);
  });

  it('and today no file of theirs does (the rule holds on the tree, not only on samples)', async () => {
    const files = [
      ...fs.readdirSync(path.join(REPO_ROOT, 'src', 'cli'), { recursive: true }).map((f) => `src/cli/${String(f)}`),
      ...fs.readdirSync(path.join(REPO_ROOT, 'src', 'host')).map((f) => `src/host/${f}`),
    ].filter((f) => f.endsWith('.ts'));
    const below =
      /from '(?:\.\.\/)+(text|identity|store|placement|undo|jobs|catalogue|suggest|documents|hand|exports)\//;
    const offenders = files.filter((f) => below.test(fs.readFileSync(path.join(REPO_ROOT, f), 'utf8')));
    expect(files.length).toBeGreaterThan(20);
    expect(offenders).toEqual([]);
  });
});

// Issue 50, §1: the app composes every adapter. A shell takes from src/app/ its entry and the functions
// meant for it, so it can hold no store, no db and no service context of its own.
describe('each shell takes from src/app/ only its entry and the functions meant for it', () => {
  it('the CLI: its entry and the store commands and places, never the service, the context or the work', async () => {
    for (const file of ['src/cli/adapter.ts', 'src/cli/run.ts', 'src/cli/shell/x.ts']) {
      const app = file.startsWith('src/cli/shell/') ? '../../app' : '../app';
      const api = file.startsWith('src/cli/shell/') ? '../../api' : '../api';
      for (const allowed of ['cli-core.ts', 'store-commands.ts', 'store-place.ts']) {
        expect(await restricted(file, `import '${app}/${allowed}';`), `${file} → ${allowed}`).toEqual([]);
      }
      expect(await restricted(file, `import '${api}/contract.ts'; import '${api}/validate.ts';`), file).toEqual([]);
      for (const forbidden of ['context.ts', 'core.ts', 'work.ts', 'open-for-command.ts', 'recovery.ts']) {
        const [message] = await restricted(file, `import '${app}/${forbidden}';`);
        expect(message, `${file} → ${forbidden}`).toMatch(
          /src\/cli\/ takes from src\/app\/ only cli-core\.ts, store-commands\.ts, store-place\.ts/,
        );
      }
      for (const forbidden of ['service.ts', 'ports.ts', 'handlers/index.ts']) {
        const [message] = await restricted(file, `import '${api}/${forbidden}';`);
        expect(message, `${file} → ${forbidden}`).toMatch(/The CLI makes no service of its own/);
      }
      expect(await restricted(file, "import type { Database } from 'better-sqlite3';"), file).toHaveLength(1);
    }
  });

  it('the browser host: the core, its credentials, the hand-over and the store places', async () => {
    for (const allowed of ['core.ts', 'env-credentials.ts', 'hand-over.ts', 'store-place.ts']) {
      expect(await restricted('src/host/x.ts', `import '../app/${allowed}';`), allowed).toEqual([]);
    }
    for (const forbidden of ['context.ts', 'work.ts', 'cli-core.ts', 'store-commands.ts']) {
      expect(await restricted('src/host/x.ts', `import '../app/${forbidden}';`), forbidden).toEqual([
        expect.stringMatching(/src\/host\/ takes from src\/app\/ only/),
      ]);
    }
  });

  it('electron/: the core and the store places', async () => {
    for (const allowed of ['core.ts', 'store-place.ts']) {
      expect(await restricted('electron/x.ts', `import '../src/app/${allowed}';`), allowed).toEqual([]);
    }
    for (const forbidden of ['context.ts', 'work.ts', 'cli-core.ts', 'env-credentials.ts']) {
      expect(await restricted('electron/x.ts', `import '../src/app/${forbidden}';`), forbidden).toEqual([
        expect.stringMatching(/electron\/ takes from src\/app\/ only core\.ts, store-place\.ts/),
      ]);
    }
    expect(await restricted('electron/x.ts', "import Database from 'better-sqlite3';")).toHaveLength(1);
    expect(await restricted('electron/x.ts', "import pg from 'pg';")).toHaveLength(1);
  });

  it('and the tree keeps to it: no file of src/cli/ names a store, a db or a service context', () => {
    const files = fs
      .readdirSync(path.join(REPO_ROOT, 'src', 'cli'), { recursive: true })
      .map((f) => `src/cli/${String(f)}`)
      .filter((f) => f.endsWith('.ts'));
    const offenders = files.filter((f) =>
      /\b(?:Store|StoreDb|ServiceContext|createApiService|serviceContext|inProcessJobs)\b|\.db\b/.test(
        fs.readFileSync(path.join(REPO_ROOT, f), 'utf8'),
      ),
    );
    expect(files.length).toBeGreaterThan(15);
    expect(offenders).toEqual([]);
  });
});

/** The messages `rule` gives `code` as if it were `file`. */
async function ruled(rule: string, file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(REPO_ROOT, file) });
  return (result?.messages ?? []).filter((m) => m.ruleId === rule).map((m) => m.message);
}
const sql = (file: string, code: string) => ruled('no-restricted-syntax', file, code);

/** Each of `cases` (a file, its code) is refused once, for asking the engine outside the store. */
async function settledInTheStore(cases: readonly (readonly [string, string])[]): Promise<void> {
  for (const [file, code] of cases) {
    expect(await restricted(file, code), `${file}: ${code}`).toEqual([
      expect.stringContaining('The engine is settled inside src/store'),
    ]);
  }
}

describe('SQL and the engine live in src/store (issue 50 §2)', () => {
  it('refuses a statement prepared, run or written outside the store', async () => {
    const inside = "declare const db: any; db.prepare('SELECT 1').get();";
    expect(await sql('src/placement/x.ts', inside)).toEqual([
      expect.stringContaining('SQL and the engine’s choice live in src/store'),
      expect.stringContaining('SQL and the engine’s choice live in src/store'),
    ]);
    expect(await sql('src/store/x.ts', inside)).toEqual([]);
    expect(await sql('src/undo/x.ts', "declare const db: any; db.exec('DELETE FROM job');")).toHaveLength(2);
    expect(await sql('src/jobs/x.ts', 'declare const db: any; db.pragma(`data_version`);')).toHaveLength(1);
    expect(await sql('src/api/x.ts', 'export const q = `UPDATE order_line SET qty = ${1}`;')).toHaveLength(1);
    expect(await sql('electron/x.ts', "export const q = 'INSERT INTO setting VALUES (1)';")).toHaveLength(1);
    // Words for staff and a regular expression's exec are not SQL.
    const words = "declare const text: string; export const m = /a/.exec(text); export const w = 'Select a file';";
    expect(await sql('src/text/x.ts', words)).toEqual([]);
  });

  it('refuses SQL in lower case too (issue 66 §4), told from staff’s words by its shape', async () => {
    for (const statement of [
      "'select id from job'",
      "'Select id From job where id = 1'",
      "'insert into setting values (1)'",
      '`insert or replace into ${table} values (1)`',
      "'update order_line set qty = 1'",
      "'delete from job where id = 1'",
      '`delete from ${table}`',
      '`select count(*) from ${table}`',
      "'with x as (select 1) select * from x'",
      "'create unique index i on t (a)'",
      "'drop table t'",
      "'alter table t add b'",
    ]) {
      const code = `declare const table: string; export const q = ${statement};`;
      expect(await sql('src/compare/x.ts', code), statement).toEqual([expect.stringContaining('live in src/store')]);
      expect(await sql('src/store/x.ts', code), statement).toEqual([]);
    }
    for (const words of [
      'Select a file from your computer',
      'Select the colour from the list',
      'Insert into the document',
      'Delete from this desk',
      'Update the catalogue, then set it aside',
      'update',
      'with',
      'with a BrickLink lot id.',
      'Create a table of parts',
    ]) {
      expect(await sql('src/compare/x.ts', `export const w = ${JSON.stringify(words)};`), words).toEqual([]);
    }
  });

  it('refuses an engine question outside the store (issue 66 §4), by its name or any name that asks it', async () => {
    await settledInTheStore([
      ['src/placement/x.ts', "import { lookupReadsAhead } from '../store/lookup.ts';"],
      ['src/jobs/x.ts', "import { onServer } from '../store/open.ts';"],
      ['src/app/x.ts', "import { isPostgres } from '../store/open.ts';"],
      ['src/catalogue/x.ts', "import { usesSqlite } from '../store/db.ts';"],
      ['src/api/handlers/x.ts', "import { isOnServer } from '../../store/info.ts';"],
    ]);
    // The store asks itself; a store function named for what it does is anyone's.
    expect(await restricted('src/store/x.ts', "import { lookupReadsAhead } from './lookup.ts';")).toEqual([]);
    expect(await restricted('src/app/x.ts', "import { openServerStore } from '../store/open.ts';")).toEqual([]);
    // The placement lookup, which asked it until the store gave it a reader (issue 66 §1), is held as its folder.
    const lookup = 'src/placement/catalogue-lookup.ts';
    expect(await restricted(lookup, "import { lookupReadsAhead } from '../store/lookup.ts';")).toHaveLength(1);
    expect(await restricted(lookup, "import { catalogueReader } from '../store/lookup.ts';")).toEqual([]);
  });

  it('refuses telling the engines apart outside the store', async () => {
    expect(
      await sql(
        'src/catalogue/x.ts',
        'declare const db: unknown, PostgresDatabase: any; db instanceof PostgresDatabase;',
      ),
    ).toHaveLength(1);
    await settledInTheStore([
      ['src/undo/x.ts', "import '../store/dialect.ts';"],
      ['src/placement/x.ts', "import '../store/postgres/database.ts';"],
      ['src/app/x.ts', "import '../store/postgres/listener.ts';"],
      ['src/catalogue/x.ts', "import Database from 'better-sqlite3';"],
      ['src/api/x.ts', "import pg from 'pg';"],
      ['src/catalogue/x.ts', "import { isServerAddress } from '../vocabulary/store-location.ts';"],
    ]);
    // The store itself; an address's kind for words and views above the core; a store function anywhere.
    expect(await restricted('src/store/x.ts', "import '../store/dialect.ts'; import 'better-sqlite3';")).toEqual([]);
    expect(
      await restricted('src/api/x.ts', "import { isServerAddress } from '../vocabulary/store-location.ts';"),
    ).toEqual([]);
    expect(await restricted('src/undo/x.ts', "import { storeName } from '../vocabulary/store-location.ts';")).toEqual(
      [],
    );
    expect(await restricted('src/undo/x.ts', "import '../store/history.ts';")).toEqual([]);
  });

  it("refuses reading an engine's error codes outside the store (issue 66 §1)", async () => {
    const codes = 'An engine’s error codes are read in src/store';
    expect(
      await sql(
        'src/vocabulary/errors.ts',
        "declare const e: { code: string }; export const b = e.code === 'SQLITE_BUSY';",
      ),
    ).toEqual([expect.stringContaining(codes)]);
    expect(
      await sql('src/app/x.ts', 'declare const code: string; export const c = code.startsWith(`SQLITE_IOERR`);'),
    ).toEqual([expect.stringContaining(codes)]);
    expect(
      await sql('electron/x.ts', "declare const e: { sqlstate: string }; export const s = e.sqlstate === '55P03';"),
    ).toEqual([expect.stringContaining(codes)]);
    // The store reads them; and a refusal's code is the project's, not an engine's.
    expect(
      await sql('src/store/x.ts', "declare const e: { code: string }; export const b = e.code === 'SQLITE_BUSY';"),
    ).toEqual([]);
    expect(
      await sql('src/app/x.ts', "declare const e: { code: string }; export const b = e.code === 'store-busy';"),
    ).toEqual([]);
  });
});

describe('rooms a newcomer can read (issue 50 §3)', () => {
  const fn = (lines: number) => `export function f(): number {\n${'  void 0;\n'.repeat(lines - 3)}  return 1;\n}\n`;
  it('refuses a function over 120 lines in src/, renderer/ and electron/', async () => {
    for (const file of ['src/compare/x.ts', 'renderer/x.tsx', 'electron/x.ts']) {
      expect(await ruled('max-lines-per-function', file, fn(120)), file).toEqual([]);
      expect(await ruled('max-lines-per-function', file, fn(121)), file).toEqual([
        expect.stringContaining('too many lines (121). Maximum allowed is 120'),
      ]);
    }
  });
});

describe('a view only shapes what its handler gives it (issue 50 §3)', () => {
  const views = 'src/api/views.ts';
  const shapeOnly = expect.stringContaining('A view only shapes what its handler gives it (issue 50 §3)');
  it('refuses src/api/views.ts a store, the history or placement to read; their types are allowed', async () => {
    expect(await restricted(views, "import { colourInfo } from '../store/colours.ts'; colourInfo;")).toEqual([
      shapeOnly,
    ]);
    expect(await restricted(views, "import { newestStep } from '../undo/history.ts'; newestStep;")).toEqual([
      shapeOnly,
    ]);
    expect(await restricted(views, "import { placeItem } from '../placement/rule.ts'; placeItem;")).toEqual([
      shapeOnly,
    ]);
    expect(await restricted(views, "import type { ColourInfo } from '../store/colours.ts';")).toEqual([]);
    expect(await restricted(views, "import type { LineFacts } from '../placement/line-facts.ts';")).toEqual([]);
    // The api layer's rule still holds for the file, and the handlers still read the store.
    expect(await restricted(views, "import '../app/core.ts';")).toEqual([
      expect.stringContaining('src/api/ may not import'),
    ]);
    expect(await restricted('src/api/handlers/x.ts', "import { colourInfo } from '../../store/colours.ts';")).toEqual(
      [],
    );
  });

  it('and views.ts keeps to it today', async () => {
    const file = path.join(REPO_ROOT, views);
    expect(await restricted(views, fs.readFileSync(file, 'utf8'))).toEqual([]);
  });
});
