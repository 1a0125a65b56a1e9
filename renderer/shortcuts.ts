/**
 * Keyboard shortcut labels as staff read them on their own desktop: ⌘ on macOS, Ctrl elsewhere
 * (SPEC §9: ⌘Z / ⇧⌘Z, Ctrl on Windows and Linux).
 */
export type Platform = 'mac' | 'other';

export function platformOf(userAgent: string): Platform {
  return /Mac|iPhone|iPad/.test(userAgent) ? 'mac' : 'other';
}

export function undoShortcut(platform: Platform): string {
  return platform === 'mac' ? '⌘Z' : 'Ctrl+Z';
}

export function redoShortcut(platform: Platform): string {
  return platform === 'mac' ? '⇧⌘Z' : 'Ctrl+Shift+Z';
}

/** A key press, as a KeyboardEvent gives it. */
export interface KeyPress {
  readonly key: string;
  readonly metaKey: boolean;
  readonly ctrlKey: boolean;
  readonly shiftKey: boolean;
  readonly altKey: boolean;
}

/** ⌘ on macOS, Ctrl elsewhere, held (and not the other). */
function withCommandKey(e: KeyPress, platform: Platform): boolean {
  return platform === 'mac' ? e.metaKey && !e.ctrlKey : e.ctrlKey && !e.metaKey;
}

/**
 * What a key press asks of the history: ⌘Z / ⇧⌘Z on macOS; Ctrl+Z, and Ctrl+Shift+Z or Ctrl+Y (as on
 * Windows and Linux desktops) elsewhere. Null for anything else.
 */
export function historyCommand(e: KeyPress, platform: Platform): 'undo' | 'redo' | null {
  const mod = withCommandKey(e, platform);
  if (!mod || e.altKey) return null;
  const key = e.key.toLowerCase();
  if (key === 'z') return e.shiftKey ? 'redo' : 'undo';
  if (key === 'y' && platform !== 'mac' && !e.shiftKey) return 'redo';
  return null;
}

/** Ctrl+O (⌘O on macOS): open a file — the screen's file picker (SPEC §9), as the app's menu does. */
export function isOpenShortcut(e: KeyPress, platform: Platform): boolean {
  const mod = withCommandKey(e, platform);
  return mod && !e.altKey && !e.shiftKey && e.key.toLowerCase() === 'o';
}
