/**
 * Where the window was: its size and place kept in `window-state.json` of the user-data folder, read at
 * the next start (macOS convention, issue 44), with a minimum the screens are built for. A place on a
 * screen no longer attached (a laptop off its monitor) is not used: the window opens at its size on the
 * main screen instead, never out of reach.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { BrowserWindow, Rectangle } from 'electron';
import { writeFileAtomically } from '../src/platform/files.ts';

/** The narrowest and lowest the screens still work at (the line table, the side panel, the header). */
export const MIN_SIZE = { width: 1024, height: 640 } as const;
export const DEFAULT_SIZE = { width: 1360, height: 880 } as const;
const FILE = 'window-state.json';
/** How much of the window's title bar must be on a screen for its place to count as reachable. */
const REACHABLE = 64;

export interface WindowPlace {
  readonly width: number;
  readonly height: number;
  /** Absent: let the system place it (centred on the main screen). */
  readonly x?: number;
  readonly y?: number;
  readonly maximized: boolean;
}

/** The place kept last time, fitted to the screens attached now (their work areas); the default when none. */
export function windowPlace(userData: string, workAreas: readonly Rectangle[]): WindowPlace {
  const kept = readKept(path.join(userData, FILE));
  if (kept === null) return { ...DEFAULT_SIZE, maximized: false };
  const width = Math.max(MIN_SIZE.width, kept.width);
  const height = Math.max(MIN_SIZE.height, kept.height);
  const { x, y } = kept;
  const reachable =
    x !== undefined &&
    y !== undefined &&
    workAreas.some(
      (a) =>
        y >= a.y &&
        y + REACHABLE / 2 <= a.y + a.height &&
        x + width - REACHABLE >= a.x &&
        x + REACHABLE <= a.x + a.width,
    );
  return reachable ? { width, height, x, y, maximized: kept.maximized } : { width, height, maximized: kept.maximized };
}

function readKept(file: string): WindowPlace | null {
  try {
    const v = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<WindowPlace> | null;
    const whole = (n: unknown): n is number => Number.isSafeInteger(n);
    if (v === null || !whole(v.width) || !whole(v.height) || v.width <= 0 || v.height <= 0) return null;
    const at = whole(v.x) && whole(v.y) ? { x: v.x, y: v.y } : {};
    return { width: v.width, height: v.height, ...at, maximized: v.maximized === true };
  } catch {
    return null; // none kept yet, or not ours: the default
  }
}

/**
 * Keeps the window's place as staff leave it: its normal bounds (not the maximised or full-screen ones,
 * so un-maximising next time goes back to them) and whether it was maximised, when it is moved, resized
 * or closed. Written at most every half second while it moves.
 */
export function keepWindowPlace(window: BrowserWindow, userData: string): void {
  const file = path.join(userData, FILE);
  let timer: NodeJS.Timeout | null = null;
  const save = () => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
    if (window.isDestroyed()) return;
    const b = window.getNormalBounds();
    const place: WindowPlace = { width: b.width, height: b.height, x: b.x, y: b.y, maximized: window.isMaximized() };
    try {
      writeFileAtomically(file, JSON.stringify(place));
    } catch {
      // A full disk or a read-only profile: the next start opens at the default place, nothing worse.
    }
  };
  const later = () => {
    if (timer === null) timer = setTimeout(save, 500);
  };
  for (const event of ['resize', 'move'] as const) window.on(event as 'resize', later);
  for (const event of ['maximize', 'unmaximize', 'close'] as const) window.on(event as 'close', save);
}
