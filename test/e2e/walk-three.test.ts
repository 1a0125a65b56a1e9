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
        { no: '30179', name: 'Door Frame 1 x 4 x 6' },
        { no: '60596', name: 'Door Frame 1 x 4 x 6 Type 2' },
        { no: '3957b', name: 'Antenna 1 x 4 Rounded Top' },
        { no: '3957a', name: 'Antenna 1 x 4 Flat Top' },
      ]),
    );
    // 60596 is another mould of 30179: a search for 30179 suggests it too, after 30179 itself.
    fs.writeFileSync(
      path.join(dir, 'part_relationships.csv'),
      files.rebrickableRelationships([{ type: 'M', child: '60596', parent: '30179' }]),
    );
    for (const file of ['parts.csv', 'part_relationships.csv'])
      expect((await cliJson(['--db', store, 'catalogue', 'import', path.join(dir, file)])).code).toBe(0);
    fs.writeFileSync(
      path.join(dir, 'Doors.bsx'),
      bsx([
        { no: 'door-x', name: 'Door frame, old', qty: 1 },
        { no: 'ant-x', name: 'Antenna, old', qty: 1 },
        { no: 'odd-x', name: 'Odd piece', qty: 1 },
      ]),
    );
    expect((await cliJson(['--db', store, 'import', path.join(dir, 'Doors.bsx')])).code).toBe(0);
    // One lot of 3 at $8.8323: the order's value is $26.4969 exactly.
    fs.writeFileSync(path.join(dir, 'Priced.bsx'), bsx([{ no: '3001', name: 'Brick 2 x 4', qty: 3, price: '8.8323' }]));
    expect((await cliJson(['--db', store, 'import', path.join(dir, 'Priced.bsx')])).code).toBe(0);
    fs.writeFileSync(path.join(dir, 'Small.bsx'), bsx([{ no: '3001', name: 'Brick 2 x 4', qty: 1 }]));
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

  // Point 6: the page reads a chosen file, and sends it, on a worker — which reads the file again. A file
  // changed on disk since it was chosen (Chromium then refuses to read it) goes as the page read it: the
  // import is what the preview showed.
  it('6: a file changed on disk after it was chosen imports as previewed', async () => {
    const changing = path.join(dir, 'Changing.bsx');
    fs.writeFileSync(changing, bsx([{ no: '3001', name: 'Brick 2 x 4', qty: 7 }]));
    await tab('Import').click();
    await page.getByTestId('import-file').setInputFiles(changing);
    await page.getByTestId('preview').waitFor();
    fs.writeFileSync(
      changing,
      bsx([
        { no: '4073', name: 'Plate Round 1 x 1', qty: 1 },
        { no: '30179', name: 'Door Frame 1 x 4 x 6', qty: 1 },
      ]),
    );
    await page.getByTestId('confirm-import').click();
    await page.getByRole('heading', { name: /Order Changing\.bsx/ }).waitFor({ timeout: 30_000 });
    const orders = (await cliJson(['--db', store, 'orders'])).json.orders as {
      reference: string;
      lines: number;
      totalQuantity: number;
    }[];
    expect(orders.find((o) => o.reference === 'Changing.bsx')).toMatchObject({ lines: 1, totalQuantity: 7 });
  });

  it('3: the exact number first, ↓ from the search highlights the first entry Enter takes, letter variants in order, N from the suggestions', async () => {
    await tab('Orders').click();
    await page
      .getByRole('button', { name: '← Orders' })
      .click()
      .catch(() => {});
    await page.locator('tr.clickable', { hasText: 'Doors.bsx' }).click();
    await page.getByRole('heading', { name: /Order Doors\.bsx/ }).waitFor();
    const results = page.getByTestId('suggestions');
    const entries = results.locator('li');
    // The list once it shows the search's answer: until then it shows the line's own suggestions, which
    // may hold the number awaited too (a letter variant by number), in their own order.
    const searched = page.locator('[data-testid="suggestions"][aria-label="Search results"]');
    await page.locator('.line-row', { hasText: 'door-x' }).click();
    await page.keyboard.press('/');
    await page.keyboard.type('30179');
    await searched.locator('li b', { hasText: /^P 60596$/ }).waitFor();
    // The exact number first, the other mould after it.
    expect(await entries.nth(0).locator('b').first().textContent()).toBe('P 30179');
    // While typing nothing is highlighted; ↓ highlights the first entry, where the list now has the focus.
    expect(await results.locator('li.highlighted').count()).toBe(0);
    await page.keyboard.press('ArrowDown');
    expect(await results.locator('li.highlighted b').first().textContent()).toBe('P 30179');
    await shot('3-down-highlights-the-first');
    await page.keyboard.press('Enter');
    await page
      .getByTestId('notice')
      .filter({ hasText: /^Placed line 1 on P 30179/ })
      .waitFor();

    // Letter variants in their order.
    await page.locator('.line-row', { hasText: 'ant-x' }).click();
    await page.keyboard.press('/');
    await page.keyboard.type('3957');
    await searched.locator('li b', { hasText: /^P 3957b$/ }).waitFor();
    // The answer to "3957" itself (one to "395", typed on the way, may still be shown for a moment).
    const firstTwo = async () => [
      await entries.nth(0).locator('b').first().textContent(),
      await entries.nth(1).locator('b').first().textContent(),
    ];
    await expect.poll(firstTwo).toEqual(['P 3957a', 'P 3957b']);

    // N from the suggestions goes to the next unplaced line, and the list keeps the focus.
    await page.keyboard.press('Escape');
    await page.locator('.line-row', { hasText: 'ant-x' }).click();
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => results.evaluate((el) => el === el.ownerDocument.activeElement)).toBe(true);
    await page.keyboard.press('n');
    await expect.poll(() => page.locator('.line-row.selected').textContent()).toContain('odd-x');
    expect(await results.evaluate((el) => el === el.ownerDocument.activeElement)).toBe(true);
  }, 120_000);

  it("5: money in its currency's digits (the exact value on hover); Compare says 1 line, and names its empty groups", async () => {
    await tab('Orders').click();
    const row = page.locator('tr.clickable', { hasText: 'Priced.bsx' });
    await row.waitFor();
    expect(await row.textContent()).toContain('$26.50');
    expect(await row.textContent()).not.toContain('26.4969');
    await row.click();
    const value = page.getByTestId('order-value');
    expect(await value.textContent()).toBe('$26.50');
    expect(await value.getAttribute('title')).toBe('26.4969 USD exactly');

    await tab('Compare').click();
    const left = page.getByTestId('compare-left').locator('select');
    const right = page.getByTestId('compare-right').locator('select');
    const order = left.locator('optgroup[label="Orders"] option', { hasText: /^Priced\.bsx — / });
    expect(await order.textContent()).toBe('Priced.bsx — 1 line');
    await left.selectOption((await order.getAttribute('value')) ?? '');
    const doc = right.locator('option', { hasText: 'in Priced.bsx' }).first();
    await right.selectOption((await doc.getAttribute('value')) ?? '');
    await page.getByTestId('compare-run').click();
    await expect.poll(() => page.getByTestId('compare-summary').innerText()).toBe('No differences in quantity.');
    expect(await page.getByTestId('compare-group-empty').allTextContents()).toEqual([
      'Only on the left: none',
      'Only on the right: none',
      'Quantity differs: none',
    ]);
    await shot('5-compare-names-its-empty-groups');
  }, 60_000);

  it('4: focus after every action is on the next thing to do; the orders list is one Tab stop', async () => {
    const focused = async () => {
      const at = page.locator(':focus');
      if ((await at.count()) === 0) return '';
      return (await at.getAttribute('data-testid')) ?? (await at.getAttribute('aria-label')) ?? '';
    };
    // A file chosen: Import.
    await tab('Import').click();
    await page.getByTestId('import-file').setInputFiles(path.join(dir, 'Small.bsx'));
    await page.getByTestId('preview').waitFor();
    await expect.poll(focused).toBe('confirm-import');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: /Order Small\.bsx/ }).waitFor();

    // "Compare with…": the other side to choose.
    await page.getByTestId('order-compare').click();
    await expect.poll(focused).toBe('Right: an order or a document');

    // "Take back this import": the question, one Tab from its button.
    await tab('Orders').click();
    await page.locator('tr.clickable', { hasText: 'Small.bsx' }).click();
    await page.getByTestId('documents').locator('summary').click();
    await page.getByTestId('take-back').click();
    await expect.poll(focused).toBe('take-back-confirm');
    await page.keyboard.press('Tab');
    await expect.poll(focused).toBe('take-back-only');
    await page.keyboard.press('Escape');

    // The orders list: one Tab stop, ↑/↓ between its rows.
    await tab('Orders').click();
    await page.getByLabel('Search orders').focus();
    await page.keyboard.press('Tab');
    const rows = page.locator('table[aria-label="Order list"] tbody tr');
    const isFocused = (i: number) => rows.nth(i).evaluate((el) => el === el.ownerDocument.activeElement);
    // Tab reaches the list's row the worker was last on (Small.bsx's, which they came back from: issue 64 §1).
    const focusedRow = () => rows.evaluateAll((all) => all.findIndex((r) => r === r.ownerDocument.activeElement));
    await expect.poll(focusedRow).toBeGreaterThanOrEqual(0);
    const from = await focusedRow();
    expect(await rows.nth(from).textContent()).toContain('Small.bsx');
    const count = await rows.count();
    const to = from + 1 < count ? from + 1 : from - 1;
    await page.keyboard.press(to > from ? 'ArrowDown' : 'ArrowUp');
    await expect.poll(() => isFocused(to)).toBe(true);
    await page.keyboard.press('Tab');
    expect(await focusedRow()).toBe(-1);
    expect(await rows.evaluateAll((all) => all.filter((r) => r.getAttribute('tabindex') === '0').length)).toBe(1);
  }, 60_000);
});
