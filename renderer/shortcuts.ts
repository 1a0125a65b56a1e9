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

/**
 * What a key press asks of the history: ⌘Z / ⇧⌘Z on macOS; Ctrl+Z, and Ctrl+Shift+Z or Ctrl+Y (as on
 * Windows and Linux desktops) elsewhere. Null for anything else.
 */
export function historyCommand(
  e: {
    readonly key: string;
    readonly metaKey: boolean;
    readonly ctrlKey: boolean;
    readonly shiftKey: boolean;
    readonly altKey: boolean;
  },
  platform: Platform,
): 'undo' | 'redo' | null {
  const mod = platform === 'mac' ? e.metaKey && !e.ctrlKey : e.ctrlKey && !e.metaKey;
  if (!mod || e.altKey) return null;
  const key = e.key.toLowerCase();
  if (key === 'z') return e.shiftKey ? 'redo' : 'undo';
  if (key === 'y' && platform !== 'mac' && !e.shiftKey) return 'redo';
  return null;
}

/** Ctrl+O (⌘O on macOS): open a file — the screen's file picker (SPEC §9), as the app's menu does. */
export function isOpenShortcut(
  e: {
    readonly key: string;
    readonly metaKey: boolean;
    readonly ctrlKey: boolean;
    readonly shiftKey: boolean;
    readonly altKey: boolean;
  },
  platform: Platform,
): boolean {
  const mod = platform === 'mac' ? e.metaKey && !e.ctrlKey : e.ctrlKey && !e.metaKey;
  return mod && !e.altKey && !e.shiftKey && e.key.toLowerCase() === 'o';
}
