/**
 * The app menu's commands (Electron sends them as `menu.command` events): what each does on screen.
 * "Search the catalogue" asks the order screen's search box to take the focus, through a window event,
 * as the box belongs to whichever order is open.
 *
 * Undo and Redo (⌘Z, ⇧⌘Z, or the Edit menu) take back the typing in a focused text field, as a browser
 * does, and the app's step otherwise: the menu sends the command whatever has the focus, and the page
 * decides here, by what has it (`editingText`).
 */
export const SEARCH_THE_CATALOGUE = 'brick-work:search-the-catalogue';

export interface MenuTargets {
  readonly undo: () => unknown;
  readonly redo: () => unknown;
  /** ⌘O (File › Import a document…): the Import screen with the app's open dialog. */
  readonly openDocument: () => unknown;
  readonly compareScreen: () => unknown;
  /** Settings… (⌘, on a Mac): the Settings screen. */
  readonly settingsScreen: () => unknown;
  readonly events: EventTarget;
  /** Whether a text field has the focus (`isTextField(document.activeElement)`); none when left out. */
  readonly editingText?: () => boolean;
  /** Undoes or redoes the typing in the focused field (`document.execCommand`). */
  readonly editText?: (command: 'undo' | 'redo') => unknown;
}

export function followMenuCommand(command: string, to: MenuTargets): void {
  if ((command === 'undo' || command === 'redo') && to.editingText?.() && to.editText) void to.editText(command);
  else if (command === 'undo') void to.undo();
  else if (command === 'redo') void to.redo();
  else if (command === 'import') void to.openDocument();
  else if (command === 'compare') void to.compareScreen();
  else if (command === 'settings') void to.settingsScreen();
  else if (command === 'search') to.events.dispatchEvent(new Event(SEARCH_THE_CATALOGUE));
}

/** The kinds of <input> one types text into (a checkbox or a button has no typing to undo). */
const TEXT_INPUTS = new Set(['text', 'search', 'email', 'url', 'tel', 'password', 'number', '']);

/** Whether an element (document.activeElement) is a field with typing of its own to undo. */
export function isTextField(
  el: { readonly tagName?: string; readonly type?: string; readonly isContentEditable?: boolean } | null,
): boolean {
  if (el === null) return false;
  const tag = (el.tagName ?? '').toUpperCase();
  if (tag === 'TEXTAREA') return true;
  if (tag === 'INPUT') return TEXT_INPUTS.has((el.type ?? '').toLowerCase());
  return el.isContentEditable === true;
}
