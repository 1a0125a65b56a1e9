/**
 * Imports order documents and takes them back, for the soak (`test/helpers/soak-imports.ts`): again and
 * again, until STOP_FILE appears (or it is killed), it imports one of the files in DOCS (a new document,
 * a revival of an undone one, or a duplicate that is refused), or undoes the newest step, or redoes one —
 * each through the core's own `confirmImport`, `undo` and `redo`, each one write transaction. Prints,
 * with CLOCK_MONOTONIC times:
 *   ready
 *   begin OP ARG T        about to (OP: import FILE, undo STEP, redo STEP; STEP is ID@CREATED_AT)
 *   done OP ARG T         …committed
 *   refused OP ARG CODE T …refused, nothing written (duplicate, step-moved, store-busy)
 * argv: STORE DOCS STOP_FILE
 */
import fs from 'node:fs';
import { thisComputer } from '../../src/identity/desk.ts';
import { writeSession } from '../../src/store/session.ts';
import { SYSTEM_CLOCK } from '../../src/platform/clock.ts';
import { confirmImport } from '../../src/documents/import.ts';
import { isBrickWorkError } from '../../src/vocabulary/errors.ts';
import { openStore } from '../../src/store/open.ts';
import { nextRedo, nextUndo, redo, undo } from '../../src/undo/history.ts';
import { chooseFile, readSoakFiles } from './soak-files.ts';

const [storePath, docsDir, stopFile] = process.argv.slice(2);
if (!storePath || !docsDir || !stopFile) throw new Error('usage: import-worker STORE DOCS STOP_FILE');
const now = () => process.hrtime.bigint().toString();
const say = (line: string) => process.stdout.write(`${line}\n`);

const files = readSoakFiles(docsDir);

const store = await openStore(storePath);
const db = store.db;
const importedKey = db.prepare("SELECT 1 FROM document WHERE doc_key = ? AND state = 'imported'").pluck();
say('ready');

async function attempt(op: string, arg: string, work: () => unknown): Promise<void> {
  say(`begin ${op} ${arg} ${now()}`);
  try {
    work();
    say(`done ${op} ${arg} ${now()}`);
  } catch (e) {
    if (!isBrickWorkError(e)) throw e;
    say(`refused ${op} ${arg} ${e.code} ${now()}`);
  }
  // Let the harness's kill land between operations too.
  await new Promise((r) => setTimeout(r, Math.random() * 20));
}

while (!fs.existsSync(stopFile)) {
  const r = Math.random();
  const toUndo = nextUndo(db, thisComputer());
  const toRedo = nextRedo(db, thisComputer());
  if (r < 0.3 && toUndo) {
    await attempt('undo', `${toUndo.id}@${toUndo.createdAt}`, () => undo(writeSession(db), SYSTEM_CLOCK, toUndo.id));
  } else if (r < 0.4 && toRedo) {
    await attempt('redo', `${toRedo.id}@${toRedo.createdAt}`, () => redo(writeSession(db), SYSTEM_CLOCK, toRedo.id));
  } else {
    const file = chooseFile(files, (k) => importedKey.get(k) !== undefined);
    if (!file) break;
    await attempt('import', file.name, () =>
      confirmImport(writeSession(db), { file: { name: file.name, content: file.content } }, SYSTEM_CLOCK),
    );
  }
}
store.close();
