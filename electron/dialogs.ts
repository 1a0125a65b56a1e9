import fs from 'node:fs';
import path from 'node:path';
import type { BrowserWindow, Dialog } from 'electron';
import type { FileDialogs } from '../src/api/ports.ts';
import { DOCUMENT_EXTENSIONS } from '../src/vocabulary/document-kinds.ts';
import { BrickWorkError } from '../src/vocabulary/errors.ts';
import { readFileWithin, type FilePurpose } from '../src/platform/file-limits.ts';
import { writeFileAtomically } from '../src/platform/files.ts';

/**
 * A file staff chose (the dialog, Finder), read whole: refused in words when it is over the cap for what
 * it is (before it is read) or can't be read.
 */
export function readChosenFile(file: string, purpose: FilePurpose): { name: string; content: Uint8Array } {
  const name = path.basename(file);
  if (!fs.existsSync(file))
    throw new BrickWorkError('not-found', `${name} could not be opened: it is no longer there, or can’t be read.`);
  return readFileWithin(file, purpose);
}

/** The app's file dialogs: the main process opens them and reads or writes the file; the page never names a path. */
export function fileDialogs(dialog: Dialog, window: BrowserWindow): FileDialogs {
  return {
    async pick(purpose) {
      const result = await dialog.showOpenDialog(window, {
        title: purpose === 'document' ? 'Import an order document' : 'Load a catalogue file',
        properties: ['openFile'],
        filters:
          purpose === 'document'
            ? [{ name: 'Order documents', extensions: [...DOCUMENT_EXTENSIONS] }]
            : [{ name: 'Catalogue files', extensions: ['xml', 'txt', 'csv', 'gz', 'tsv'] }],
      });
      const file = result.filePaths[0];
      if (result.canceled || file === undefined) return null;
      return readChosenFile(file, purpose);
    },
    async save(name, content) {
      const result = await dialog.showSaveDialog(window, { title: 'Export', defaultPath: name });
      if (result.canceled || !result.filePath) return null;
      writeFileAtomically(result.filePath, content);
      return result.filePath;
    },
  };
}
