import { describe, expect, it } from 'vitest';
import type { JobRowView } from '../src/api/contract.ts';
import { ownerWords } from '../renderer/jobs-words.ts';
import { historyCommand, isOpenShortcut, platformOf, redoShortcut, undoShortcut } from '../renderer/shortcuts.ts';
import { followMenuCommand, SEARCH_THE_CATALOGUE } from '../renderer/menu.ts';

describe('shortcut labels', () => {
  it('use ⌘ on macOS and Ctrl on Windows and Linux', () => {
    const mac = platformOf('Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/537.36');
    const linux = platformOf('Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36');
    expect([undoShortcut(mac), redoShortcut(mac)]).toEqual(['⌘Z', '⇧⌘Z']);
    expect([undoShortcut(linux), redoShortcut(linux)]).toEqual(['Ctrl+Z', 'Ctrl+Shift+Z']);
  });
});

describe('shortcut keys', () => {
  const press = (
    key: string,
    mods: Partial<{ metaKey: boolean; ctrlKey: boolean; shiftKey: boolean; altKey: boolean }> = {},
  ) => ({
    key,
    metaKey: false,
    ctrlKey: false,
    shiftKey: false,
    altKey: false,
    ...mods,
  });
  it('open a file with ⌘O on macOS and Ctrl+O elsewhere (issue 25)', () => {
    expect(isOpenShortcut(press('o', { metaKey: true }), 'mac')).toBe(true);
    expect(isOpenShortcut(press('o', { ctrlKey: true }), 'mac')).toBe(false);
    expect(isOpenShortcut(press('O', { ctrlKey: true }), 'other')).toBe(true);
    expect(isOpenShortcut(press('o', { ctrlKey: true, shiftKey: true }), 'other')).toBe(false);
    expect(isOpenShortcut(press('o'), 'other')).toBe(false);
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

describe('the jobs list in words', () => {
  const job = (over: Partial<JobRowView>): JobRowView => ({
    id: 1,
    kind: 'catalogue-lookup',
    state: 'running',
    progress: { done: 0, total: null },
    error: null,
    notBeforeDay: null,
    owner: { pid: 4242, bootId: 'b', startTicks: 1 },
    alive: true,
    ownedHere: true,
    desk: null,
    claimedAt: new Date(new Date().setHours(12, 3, 0, 0)).toISOString(),
    recoveries: 0,
    updatedAt: '',
    ...over,
  });
  it('says who runs a job instead of "pid 17955 — alive"', () => {
    expect(ownerWords(job({}))).toMatch(/^running in this app since 12:03/);
    expect(ownerWords(job({ ownedHere: false }))).toMatch(
      /^running in another brick-work \(process 4242\) since 12:03/,
    );
    // On a shop server: the desk that claimed it, not the server's session number — alive or gone.
    expect(ownerWords(job({ ownedHere: false, desk: 'counter-2' }))).toMatch(
      /^running on the desk "counter-2" since 12:03/,
    );
    // A look-up is taken up only by a desk with BrickLink's credentials (issue 61 §4); other kinds by any.
    expect(ownerWords(job({ ownedHere: false, desk: 'counter-2', alive: false }))).toBe(
      'left running by the desk "counter-2", whose brick-work stopped; it waits for a desk with BrickLink credentials',
    );
    expect(ownerWords(job({ kind: 'other', ownedHere: false, desk: 'counter-2', alive: false }))).toBe(
      'left running by the desk "counter-2", whose brick-work stopped; it is taken up again by itself',
    );
    expect(ownerWords(job({ state: 'queued', desk: 'counter-2', alive: false }))).toBe(
      'waiting; the desk "counter-2" ran it before and stopped',
    );
    expect(ownerWords(job({ alive: false, ownedHere: false }))).toBe(
      'left running by a desk or process that is gone; it waits for a desk with BrickLink credentials',
    );
    expect(ownerWords(job({ state: 'queued', alive: false }))).toBe('waiting; the process that ran it before is gone');
    expect(ownerWords(job({ state: 'queued', owner: null, alive: null }))).toBe('waiting');
    expect(ownerWords(job({ state: 'done' }))).toBe('');
    for (const j of [job({}), job({ ownedHere: false }), job({ alive: false })])
      expect(ownerWords(j)).not.toMatch(/pid|alive|gone$/);
  });
});

describe("the app menu's commands", () => {
  const targets = () => {
    const done: string[] = [];
    const events = new EventTarget();
    events.addEventListener(SEARCH_THE_CATALOGUE, () => done.push('search box focused'));
    return {
      done,
      to: {
        undo: () => done.push('undo'),
        redo: () => done.push('redo'),
        openDocument: () => done.push('import'),
        compareScreen: () => done.push('compare'),
        settingsScreen: () => done.push('settings'),
        events,
      },
    };
  };
  it('undo, redo, import, compare and settings do what they say, and "Search the catalogue" asks the search box to take the focus', () => {
    const { done, to } = targets();
    for (const command of ['undo', 'redo', 'import', 'compare', 'settings', 'search', 'no-such-command'])
      followMenuCommand(command, to);
    expect(done).toEqual(['undo', 'redo', 'import', 'compare', 'settings', 'search box focused']);
  });
});
