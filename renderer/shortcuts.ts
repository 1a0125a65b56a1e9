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
