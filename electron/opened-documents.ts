/**
 * Documents opened from outside the window (issue 44): from Finder (macOS `open-file`, also for a file
 * dropped on the Dock icon), by a file association on Windows and Linux (the path on the command line,
 * or the command line of a second start), each read here and handed to the page, which shows it in the
 * Import screen's preview — never imported without staff confirming it. Files that arrive before the
 * window can take them (Finder starting the app for a document) wait for it.
 */
import path from 'node:path';
import type { ApiEvents } from '../src/api/contract.ts';
import { DOCUMENT_EXTENSIONS } from '../src/vocabulary/document-kinds.ts';
import { toErrorValue } from '../src/app/store-place.ts';
import { readChosenFile } from './dialogs.ts';

export type OpenedDocument = ApiEvents['document.opened'];

/** The documents a command line names: paths with a document's extension (not the app, not its flags). */
export function documentsInArgv(argv: readonly string[]): string[] {
  return argv
    .slice(1)
    .filter((a) => !a.startsWith('-') && DOCUMENT_EXTENSIONS.includes(path.extname(a).slice(1).toLowerCase()));
}

export class DocumentOpener {
  private readonly waiting: string[] = [];
  private deliver: ((document: OpenedDocument) => void) | null = null;

  /** A document to open: read and handed over now, or once the window can take it. */
  open(file: string): void {
    if (this.deliver === null) this.waiting.push(file);
    else this.deliver(readOpened(file));
  }

  /** The window can take documents now: those waiting go first, in the order they came. */
  ready(deliver: (document: OpenedDocument) => void): void {
    this.deliver = deliver;
    for (const file of this.waiting.splice(0)) deliver(readOpened(file));
  }
}

function readOpened(file: string): OpenedDocument {
  try {
    const { name, content } = readChosenFile(file, 'document');
    return { name, content, problem: null };
  } catch (e) {
    return { name: path.basename(file), content: null, problem: toErrorValue(e, null).message };
  }
}
