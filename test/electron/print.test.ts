/**
 * The app's own printing (issue 65, SPEC §16), electron mocked: each page in a hidden, sandboxed window
 * that runs no script, in a session of its own that loads nothing but that page; printed with the paper
 * and orientation chosen; closed, and its file gone, however the dialog ends.
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { appPrinter, PRINT_PARTITION } from '../../electron/print.ts';
import { BrickWorkError } from '../../src/vocabulary/errors.ts';
import { chromiumFileUrl, fakeElectron } from './fake-electron.ts';

const PAGE = '<!doctype html><html><body><h1>Pick list: order Market Street</h1></body></html>';

function printer() {
  const fake = fakeElectron({ userData: '/x', appPath: '/x' });
  return { fake, port: appPrinter(fake.electron) };
}

describe('the app’s own printing', () => {
  it('prints with the paper and orientation chosen: A4 and Letter, portrait and landscape', async () => {
    const { fake, port } = printer();
    const layouts = [
      { paper: 'a4', orientation: 'portrait' },
      { paper: 'a4', orientation: 'landscape' },
      { paper: 'letter', orientation: 'portrait' },
      { paper: 'letter', orientation: 'landscape' },
    ] as const;
    for (const layout of layouts) expect(await port.print(PAGE, layout)).toBe('printed');
    expect(fake.printed.map((p) => p.options)).toEqual([
      { silent: false, printBackground: true, landscape: false, pageSize: 'A4' },
      { silent: false, printBackground: true, landscape: true, pageSize: 'A4' },
      { silent: false, printBackground: true, landscape: false, pageSize: 'Letter' },
      { silent: false, printBackground: true, landscape: true, pageSize: 'Letter' },
    ]);
    // The page printed is the one given, each in a window of its own.
    expect(fake.printed.map((p) => p.html)).toEqual(layouts.map(() => PAGE));
    expect(new Set(fake.windows).size).toBe(4);
  });

  it('from a hidden, sandboxed window without preload or script, closed after, its file gone', async () => {
    const { fake, port } = printer();
    await port.print(PAGE, { paper: 'a4', orientation: 'portrait' });
    const [window] = fake.windows;
    expect(window.options.show).toBe(false);
    expect(window.visible).toBe(false);
    expect(window.show).not.toHaveBeenCalled();
    const prefs = window.options.webPreferences;
    expect(prefs).toMatchObject({
      partition: PRINT_PARTITION,
      sandbox: true,
      contextIsolation: true,
      javascript: false,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      webSecurity: true,
      webviewTag: false,
    });
    expect(prefs.preload).toBeUndefined();
    expect(PRINT_PARTITION.startsWith('persist:')).toBe(false); // in memory only
    expect(window.loadFile).toHaveBeenCalledWith(fake.printed[0]?.file);
    expect(window.isDestroyed()).toBe(true);
    expect(fs.existsSync(fake.printed[0]?.file ?? '')).toBe(false);
  });

  it('its session loads only the page being printed and data: pictures, and grants nothing', async () => {
    const { fake, port } = printer();
    const session = () => fake.partitions.get(PRINT_PARTITION);
    const decide = (url: string) => {
      let answer: unknown;
      session().beforeRequest({ url }, (r: unknown) => (answer = r));
      return answer;
    };
    // Asked while the dialog is open, its page's file there.
    const answers: Record<string, unknown> = {};
    fake.printDialog.during = (window) => {
      answers['page'] = decide(chromiumFileUrl(window.loaded));
      answers['data'] = decide('data:image/png;base64,iVBORw0KGgo=');
      answers['remote'] = decide('https://img.bricklink.com/ItemImage/PN/5/3001.png');
      answers['another file'] = decide(chromiumFileUrl('/etc/passwd'));
    };
    await port.print(PAGE, { paper: 'letter', orientation: 'portrait' });
    expect(answers).toEqual({
      page: { cancel: false },
      data: { cancel: false },
      remote: { cancel: true },
      'another file': { cancel: true },
    });
    // Once printed, not even its page loads there again.
    expect(decide(chromiumFileUrl(fake.printed[0]?.file ?? ''))).toEqual({ cancel: true });
    let granted: unknown;
    session().permission(null, 'media', (g: boolean) => (granted = g));
    expect(granted).toBe(false);
    expect(session().permissionCheck()).toBe(false);
  });

  it('a dialog cancelled prints nothing; a print the system refuses is said in words; the window closes either way', async () => {
    const { fake, port } = printer();
    fake.printDialog.success = false;
    fake.printDialog.failureReason = 'Print job canceled';
    expect(await port.print(PAGE, { paper: 'a4', orientation: 'portrait' })).toBe('cancelled');
    fake.printDialog.failureReason = 'Invalid printer settings';
    const failed = await port.print(PAGE, { paper: 'a4', orientation: 'portrait' }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(failed).toBeInstanceOf(BrickWorkError);
    expect(failed).toMatchObject({
      code: 'print-failed',
      message: 'Nothing was printed: the system said “Invalid printer settings”.',
    });
    expect(fake.windows.map((w) => w.isDestroyed())).toEqual([true, true]);
    expect(fake.printed.every((p) => !fs.existsSync(p.file))).toBe(true);
  });
});
