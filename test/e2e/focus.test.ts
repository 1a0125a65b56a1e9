import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildScreens, fileChooserFrom, hasChromium, NEEDS_CHROMIUM, openApp } from '../helpers/browser.ts';
import { files } from '../helpers/catalogue-files.ts';
import { cliJson, REPO_ROOT } from '../helpers/cli.ts';
import { orderXml } from '../helpers/documents.ts';
import { needs } from '../helpers/needs.ts';
import { pressShortcut } from '../helpers/shortcut-keys.ts';

/** What has the focus, as a worker would name it: its test id, else its tag and text. */
const focused = (page: Page) =>
  page.evaluate(() => {
    // In the page (this file is type-checked without the DOM's types).
    interface El {
      tagName: string;
      textContent: string | null;
      getAttribute(name: string): string | null;
    }
    const doc = (globalThis as unknown as { document: { activeElement: El | null; body: El } }).document;
    const at = doc.activeElement;
    if (at === null || at === doc.body) return 'the page';
    return (
      at.getAttribute('data-testid') ?? `${at.tagName.toLowerCase()}: ${(at.textContent ?? '').trim().slice(0, 40)}`
    );
  });

/** Issue 64 §1: after each move, the focus is where the next keystroke is meant to go, never the page's body. */
describe.runIf(needs(hasChromium(), NEEDS_CHROMIUM, 'the focus walk'))('focus that stays (issue 64 §1)', () => {
  let dir: string;
  let app: Awaited<ReturnType<typeof openApp>>;
  let page: Page;
  let write: (name: string, text: string) => string;
  let run: (args: string[]) => Promise<unknown>;

  beforeAll(async () => {
    buildScreens();
    dir = fs.mkdtempSync(path.join(REPO_ROOT, 'test-results', 'focus-'));
    const db = path.join(dir, 'brick-work.sqlite');
    write = (name: string, text: string) => {
      fs.writeFileSync(path.join(dir, name), text);
      return path.join(dir, name);
    };
    run = async (args: string[]) => {
      const r = await cliJson(['--db', db, ...args]);
      if (r.code !== 0) throw new Error(`${args.join(' ')}: ${JSON.stringify(r.json)}`);
      return r.json;
    };
    await run([
      'catalogue',
      'import',
      write('parts.csv', files.rebrickableParts([{ no: '3001', name: 'Brick 2 x 4' }])),
    ]);
    for (const id of ['8001', '8002', '8003'])
      await run(['import', write(`${id}.xml`, orderXml([{ id, seller: `s${id}`, lines: [{ no: 'x9', colour: 5 }] }]))]);
    app = await openApp(db);
    page = app.page;
  }, 180_000);

  afterAll(async () => {
    await app?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('← Orders lands on the order the worker left; closing History goes back where it was opened from', async () => {
    const row = page.locator('tr.clickable', { hasText: '8002' });
    await row.click();
    await page.getByRole('heading', { name: /Order 8002/ }).waitFor();
    await page.getByRole('button', { name: '← Orders' }).click();
    await expect.poll(() => focused(page)).toMatch(/^tr: 8002/);
    // ↓ from there goes on to the next order, as the worker expects of the row they are on.
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => focused(page)).toMatch(/^tr: 8001|^tr: 8003/);

    // The table comes before destructive buttons: a Tab from Find in lines reaches the lines, never
    // "Take back this import", even with the documents open above them.
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: /Order 800/ }).waitFor();
    await page.getByTestId('documents').locator('summary').click();
    await page.getByTestId('find-lines').focus();
    await page.keyboard.press('Tab');
    await expect.poll(() => focused(page)).toBe('line-table');
    await page.screenshot({ path: path.join(REPO_ROOT, 'test-results', 'focus-documents-above.png') });
    // Taking back its one import: the order is undone, and the focus is on the way back to the list.
    await page.getByTestId('take-back').click();
    await page.getByTestId('take-back-only').click();
    await page.getByTestId('order-undone').waitFor();
    await expect.poll(() => focused(page)).toBe('order-back');
    await page.keyboard.press('Enter');
    await expect.poll(() => focused(page)).toMatch(/^tr: 800/);

    await page.getByRole('button', { name: 'History' }).focus();
    await page.keyboard.press('Enter');
    await page.getByTestId('history-panel').waitFor();
    // The panel takes the focus once it has read the history (its heading), so that Escape reaches it.
    await expect.poll(() => focused(page)).toMatch(/^h2: History/);
    await page.keyboard.press('Escape');
    await page.getByTestId('history-panel').waitFor({ state: 'detached' });
    await expect.poll(() => focused(page)).toBe('history-open');
  });

  it('choosing a file for a revival lands on Revive, or on "as a new document" when its lines no longer pair', async () => {
    // An order taken back by another desk (the CLI), whose file the worker opens again to revive it.
    const file = write('8004.xml', orderXml([{ id: '8004', seller: 's8004', lines: [{ no: 'x9', colour: 5 }] }]));
    const imported = (await run(['import', file])) as { imports: { document: { id: number } }[] };
    const documentId = imported.imports[0]?.document.id;
    await run(['take-back', String(documentId)]);
    await page.getByRole('button', { name: 'Orders' }).first().click();
    await page.locator('body').click({ position: { x: 5, y: 300 } });
    await (await fileChooserFrom(page, () => pressShortcut(page, 'open'))).setFiles(file);
    await page.getByTestId('revival').waitFor();
    await expect.poll(() => focused(page)).toBe('confirm-import');
    await expect(page.getByTestId('confirm-import').textContent()).resolves.toBe('Revive');
    await page.getByRole('button', { name: 'Clear' }).click();

    // The same order with a line more: it can't be revived (its lines don't pair), so the next keystroke is
    // the choice of importing it as a new document, never the page's body.
    const longer = write(
      '8004.xml',
      orderXml([
        {
          id: '8004',
          seller: 's8004',
          lines: [
            { no: 'x9', colour: 5 },
            { no: '3001', colour: 5 },
          ],
        },
      ]),
    );
    await page.locator('body').click({ position: { x: 5, y: 300 } });
    await (await fileChooserFrom(page, () => pressShortcut(page, 'open'))).setFiles(longer);
    await page.getByTestId('preview').waitFor();
    await page.screenshot({ path: path.join(REPO_ROOT, 'test-results', 'focus-revival-refused.png') });
    await expect.poll(() => focused(page)).toBe('import-as-new');
    await page.keyboard.press('Space');
    await expect.poll(() => focused(page)).toBe('confirm-import');
  });
});
