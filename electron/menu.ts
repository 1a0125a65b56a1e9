import type { MenuItemConstructorOptions } from 'electron';
import type { StepView } from '../src/api/contract.ts';

export interface MenuActions {
  undo(): void;
  redo(): void;
  importDocument(): void;
  compare(): void;
  search(): void;
  /** The Settings screen: the app menu's Settings… (⌘,) on a Mac, File › Settings… elsewhere. */
  settings(): void;
}

/**
 * The app's menu: Undo ⌘Z and Redo ⇧⌘Z (Ctrl on Windows and Linux), each naming what it will undo,
 * rebuilt whenever the history moves; ⌘O opens a document (the app's dialog, on the Import screen); the
 * Window menu minimises with ⌘M. On a Mac the app menu is a Mac app's: About, Settings… (⌘,), Services,
 * Hide, Hide Others, Show All, Quit.
 *
 * Undo and Redo stay enabled even when the history has nothing: on macOS a text field undoes its typing
 * only through the Edit menu's item for ⌘Z (Electron has no other way for that key), so it must always
 * be there to press. Their click only tells the page
 * (`menu.command`), and the page decides (renderer/menu.ts): the typing in the focused text field, as a
 * browser does, else the app's step — a step the page does not have is nothing.
 */
export function menuTemplate(
  platform: NodeJS.Platform,
  history: { undo: StepView | null; redo: StepView | null },
  actions: MenuActions,
): MenuItemConstructorOptions[] {
  const mac = platform === 'darwin';
  const settings: MenuItemConstructorOptions = {
    label: 'Settings…',
    accelerator: 'CmdOrCtrl+,',
    click: actions.settings,
  };
  const separator: MenuItemConstructorOptions = { type: 'separator' };
  return [
    ...(mac
      ? [
          {
            label: 'brick-work',
            submenu: [
              { role: 'about' },
              { type: 'separator' },
              settings,
              { type: 'separator' },
              { role: 'services' },
              { type: 'separator' },
              { role: 'hide' },
              { role: 'hideOthers' },
              { role: 'unhide' },
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
        { label: 'Compare two lists…', click: actions.compare },
        { type: 'separator' },
        // Settings live in the app menu on a Mac; elsewhere, here.
        ...(mac ? [] : [settings, separator]),
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
          enabled: true,
          click: actions.undo,
        },
        {
          id: 'redo',
          label: history.redo ? `Redo ${history.redo.label}` : 'Redo',
          accelerator: 'Shift+CmdOrCtrl+Z',
          enabled: true,
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
    // ⌘M minimises, as on every Mac app; Windows and Linux get Minimize and Close here too.
    {
      label: 'Window',
      role: 'windowMenu',
      submenu: mac
        ? [{ role: 'minimize', accelerator: 'CmdOrCtrl+M' }, { role: 'zoom' }, { type: 'separator' }, { role: 'front' }]
        : [{ role: 'minimize', accelerator: 'CmdOrCtrl+M' }, { role: 'close' }],
    },
  ];
}
