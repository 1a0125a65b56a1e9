import type { BrowserWindow, NativeTheme } from 'electron';

/**
 * The screens' ground in each appearance: renderer/styles.css's `--bg`, light and dark (a test keeps the
 * two the same). The window is filled with it before its page paints and where a resize uncovers it, so a
 * dark Mac shows no white flash; Chromium itself follows nativeTheme, and the page with it.
 */
export const WINDOW_BACKGROUND = { light: '#f6f7f9', dark: '#16191d' } as const;

/** The window's ground for the system's appearance now. */
export function windowBackground(theme: Pick<NativeTheme, 'shouldUseDarkColors'>): string {
  return theme.shouldUseDarkColors ? WINDOW_BACKGROUND.dark : WINDOW_BACKGROUND.light;
}

/** Keeps the window's ground with the system's appearance when staff switch it, until the window closes. */
export function followAppearance(
  theme: Pick<NativeTheme, 'shouldUseDarkColors' | 'on' | 'removeListener'>,
  window: Pick<BrowserWindow, 'setBackgroundColor' | 'isDestroyed' | 'once'>,
): void {
  const update = () => {
    if (!window.isDestroyed()) window.setBackgroundColor(windowBackground(theme));
  };
  theme.on('updated', update);
  window.once('closed', () => theme.removeListener('updated', update));
}
