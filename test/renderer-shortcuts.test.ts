import { describe, expect, it } from 'vitest';
import { historyCommand, platformOf, redoShortcut, undoShortcut } from '../renderer/shortcuts.ts';

describe('shortcut labels', () => {
  it('use ⌘ on macOS and Ctrl on Windows and Linux', () => {
    const mac = platformOf('Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/537.36');
    const linux = platformOf('Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36');
    expect([undoShortcut(mac), redoShortcut(mac)]).toEqual(['⌘Z', '⇧⌘Z']);
    expect([undoShortcut(linux), redoShortcut(linux)]).toEqual(['Ctrl+Z', 'Ctrl+Shift+Z']);
  });
});

describe('shortcut keys', () => {
  const press = (key: string, mods: Partial<{ metaKey: boolean; ctrlKey: boolean; shiftKey: boolean; altKey: boolean }> = {}) => ({
    key,
    metaKey: false,
    ctrlKey: false,
    shiftKey: false,
    altKey: false,
    ...mods,
  });
  it('undo and redo with ⌘Z / ⇧⌘Z on macOS, and Ctrl+Z / Ctrl+Shift+Z or Ctrl+Y elsewhere', () => {
    expect(historyCommand(press('z', { metaKey: true }), 'mac')).toBe('undo');
    expect(historyCommand(press('Z', { metaKey: true, shiftKey: true }), 'mac')).toBe('redo');
    expect(historyCommand(press('y', { metaKey: true }), 'mac')).toBeNull();
    expect(historyCommand(press('z', { ctrlKey: true }), 'mac')).toBeNull();
    expect(historyCommand(press('z', { ctrlKey: true }), 'other')).toBe('undo');
    expect(historyCommand(press('Z', { ctrlKey: true, shiftKey: true }), 'other')).toBe('redo');
    expect(historyCommand(press('y', { ctrlKey: true }), 'other')).toBe('redo');
    expect(historyCommand(press('y'), 'other')).toBeNull();
    expect(historyCommand(press('z', { ctrlKey: true, altKey: true }), 'other')).toBeNull();
  });
});
