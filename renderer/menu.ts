/**
 * The app menu's commands (Electron sends them as `menu.command` events): what each does on screen.
 * "Search the catalogue" asks the order screen's search box to take the focus, through a window event,
 * as the box belongs to whichever order is open.
 */
export const SEARCH_THE_CATALOGUE = 'brick-work:search-the-catalogue';

export interface MenuTargets {
  readonly undo: () => unknown;
  readonly redo: () => unknown;
  readonly importScreen: () => unknown;
  readonly events: EventTarget;
}

export function followMenuCommand(command: string, to: MenuTargets): void {
  if (command === 'undo') void to.undo();
  else if (command === 'redo') void to.redo();
  else if (command === 'import') void to.importScreen();
  else if (command === 'search') to.events.dispatchEvent(new Event(SEARCH_THE_CATALOGUE));
}
