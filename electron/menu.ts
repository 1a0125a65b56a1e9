import type { MenuItemConstructorOptions } from 'electron';
import type { StepView } from '../src/api/contract.ts';

export interface MenuActions {
  undo(): void;
  redo(): void;
  importDocument(): void;
  search(): void;
}

/**
 * The app's menu: Undo ⌘Z and Redo ⇧⌘Z (Ctrl on Windows and Linux), each naming what it will undo,
 * rebuilt whenever the history moves.
 */
export function menuTemplate(
  platform: NodeJS.Platform,
  history: { undo: StepView | null; redo: StepView | null },
  actions: MenuActions,
): MenuItemConstructorOptions[] {
  const mac = platform === 'darwin';
  return [
    ...(mac
      ? [
          {
            label: 'brick-work',
            submenu: [
              { role: 'about' },
              { type: 'separator' },
              { role: 'hide' },
              { role: 'hideOthers' },
              { type: 'separator' },
              { role: 'quit' },
            ],
          } as MenuItemConstructorOptions,
        ]
      : []),
    {
      label: 'File',
      submenu: [
        { label: 'Import a document…', accelerator: 'CmdOrCtrl+O', click: actions.importDocument },
        { type: 'separator' },
        mac ? { role: 'close' } : { role: 'quit' },
      ],
    },
    {
      label: 'Edit',
      submenu: [
        {
          id: 'undo',
          label: history.undo ? `Undo ${history.undo.label}` : 'Undo',
          accelerator: 'CmdOrCtrl+Z',
          enabled: history.undo !== null,
          click: actions.undo,
        },
        {
          id: 'redo',
          label: history.redo ? `Redo ${history.redo.label}` : 'Redo',
          accelerator: 'Shift+CmdOrCtrl+Z',
          enabled: history.redo !== null,
          click: actions.redo,
        },
        { type: 'separator' },
        { role: 'cut' },
        { role: 'copy' },
        { role: 'paste' },
        { role: 'selectAll' },
        { type: 'separator' },
        { label: 'Search the catalogue', accelerator: 'CmdOrCtrl+F', click: actions.search },
      ],
    },
    {
      label: 'View',
      submenu: [
        { role: 'resetZoom' },
        { role: 'zoomIn' },
        { role: 'zoomOut' },
        { type: 'separator' },
        { role: 'togglefullscreen' },
      ],
    },
  ];
}
