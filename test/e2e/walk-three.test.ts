/**
 * The desk, a third walk (issue 47), in Debian's Chromium through the browser host: each trap a new
 * worker met, walked as they walked it. Screens are saved in test-results/walk-three/.
 */
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildScreens, hasChromium, launchBrowser, NEEDS_CHROMIUM, startHost } from '../helpers/browser.ts';
import { files } from '../helpers/catalogue-files.ts';
import { cliJson, REPO_ROOT } from '../helpers/cli.ts';
import { bsx } from '../helpers/documents.ts';
import { needs } from '../helpers/needs.ts';

const SHOTS = path.join(REPO_ROOT, 'test-results', 'walk-three');

describe.runIf(needs(hasChromium(), NEEDS_CHROMIUM, 'the third walk'))('the desk, a third walk (issue 47)', () => {
  let dir: string;
  let store: string;
  let host: ChildProcess;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let page: Page;
  const tab = (name: string) => page.getByRole('navigation', { name: 'Screens' }).getByRole('button', { name });
  const shot = (name: string) => page.screenshot({ path: path.join(SHOTS, `${name}.png`) });

  beforeAll(async () => {
    buildScreens();
    fs.rmSync(SHOTS, { recursive: true, force: true });
    fs.mkdirSync(SHOTS, { recursive: true });
    dir = fs.mkdtempSync(path.join(REPO_ROOT, 'test-results', 'walk-three-'));
    store = path.join(dir, 'brick-work.sqlite');
    fs.writeFileSync(
      path.join(dir, 'parts.csv'),
      files.rebrickableParts([
        { no: '4073', name: 'Plate Round 1 x 1' },
        { no: '3001', name: 'Brick 2 x 4' },
      ]),
    );
    expect((await cliJson(['--db', store, 'catalogue', 'import', path.join(dir, 'parts.csv')])).code).toBe(0);
    fs.writeFileSync(
      path.join(dir, 'Market Street.bsx'),
      bsx([
        { no: '4073', name: 'Plate Round 1 x 1', qty: 4 },
        { no: '3001', name: 'Brick 2 x 4', qty: 2 },
      ]),
    );
    expect((await cliJson(['--db', store, 'import', path.join(dir, 'Market Street.bsx')])).code).toBe(0);
    // A big order: its import takes a while, and the worker does not wait for it.
    fs.writeFileSync(
      path.join(dir, 'Big.bsx'),
      bsx(Array.from({ length: 10_000 }, (_, i) => ({ no: i % 2 ? '3001' : `big-${i}`, name: `Part ${i}`, qty: 1 }))),
    );
    const started = await startHost(store);
    host = started.child;
    browser = await launchBrowser();
    page = await browser.context.newPage();
    await page.goto(started.url);
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    host?.kill('SIGTERM');
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('1: an import that finishes while the worker types elsewhere moves nothing: it is told, with a way to the order', async () => {
    await tab('Import').click();
    await page.getByTestId('import-file').setInputFiles(path.join(dir, 'Big.bsx'));
    await page.getByTestId('preview').waitFor();
    await page.getByTestId('confirm-import').click();
    // Not waiting: to the Market Street order, typing into Find in lines as the import runs on.
    await tab('Orders').click();
    await page.locator('tr.clickable', { hasText: 'Market Street.bsx' }).click();
    await page.getByRole('heading', { name: /Order Market Street\.bsx/ }).waitFor();
    const find = page.getByLabel('Find in lines');
    await find.click();
    await page.keyboard.type('plate round', { delay: 60 });
    const told = page.getByTestId('notice').filter({ hasText: /^Imported Big\.bsx: 10,000 lines/ });
    await told.waitFor({ timeout: 60_000 });
    // Then more keys, as the worker goes on typing.
    await page.keyboard.type(' 1', { delay: 60 });
    await shot('1-import-finished-elsewhere');
    // Nothing moved: the same order, its filter as typed, the focus in it; the notice offers the new order.
    expect(await page.getByRole('heading', { name: /Order Market Street\.bsx/ }).count()).toBe(1);
    expect(await find.inputValue()).toBe('plate round 1');
    expect(await find.evaluate((el) => el === el.ownerDocument.activeElement)).toBe(true);
    expect(await told.getAttribute('role')).toBe('status');
    const open = told.getByTestId('notice-order');
    expect(await open.textContent()).toMatch(/^Order Big\.bsx: 5,000 placed, 5,000 unplaced/);
    await open.click();
    await page.getByRole('heading', { name: /Order Big\.bsx/ }).waitFor();
  }, 120_000);
});
