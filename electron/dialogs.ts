import fs from 'node:fs';
import path from 'node:path';
import type { BrowserWindow, Dialog } from 'electron';
import type { FileDialogs } from '../src/api/ports.ts';
import { BrickWorkError } from '../src/errors.ts';
import { writeFileAtomically } from '../src/files.ts';

const LIMIT = 300 * 1024 * 1024;

/** The app's file dialogs: the main process opens them and reads or writes the file; the page never names a path. */
export function fileDialogs(dialog: Dialog, window: BrowserWindow): FileDialogs {
  return {
    async pick(purpose) {
      const result = await dialog.showOpenDialog(window, {
        title: purpose === 'document' ? 'Import an order document' : 'Load a catalogue file',
        properties: ['openFile'],
        filters:
          purpose === 'document'
            ? [{ name: 'Order documents', extensions: ['xml', 'bsx', 'csv', 'txt', 'tsv'] }]
            : [{ name: 'Catalogue files', extensions: ['xml', 'txt', 'csv', 'gz', 'tsv'] }],
      });
      const file = result.filePaths[0];
      if (result.canceled || file === undefined) return null;
      if (fs.statSync(file).size > LIMIT)
        throw new BrickWorkError('parse-error', `${path.basename(file)} is too big to read.`);
      return { name: path.basename(file), content: new Uint8Array(fs.readFileSync(file)) };
    },
    async save(name, content) {
      const result = await dialog.showSaveDialog(window, { title: 'Export', defaultPath: name });
      if (result.canceled || !result.filePath) return null;
      writeFileAtomically(result.filePath, content);
      return result.filePath;
    },
  };
}
