import { describe, expect, it } from 'vitest';
import { platformOf, redoShortcut, undoShortcut } from '../renderer/shortcuts.ts';

describe('shortcut labels', () => {
  it('use ⌘ on macOS and Ctrl on Windows and Linux', () => {
    const mac = platformOf('Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/537.36');
    const linux = platformOf('Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36');
    expect([undoShortcut(mac), redoShortcut(mac)]).toEqual(['⌘Z', '⇧⌘Z']);
    expect([undoShortcut(linux), redoShortcut(linux)]).toEqual(['Ctrl+Z', 'Ctrl+Shift+Z']);
  });
});
