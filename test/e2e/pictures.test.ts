/**
 * Pictures of parts on the screens (issue 48), in Debian's Chromium through the browser host, with a
 * picture server stand-in on loopback: the placed item's picture in its colour beside the line, each
 * suggestion's picture, and a placeholder that says why where there is none. Screens in test-results/pictures/.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildScreens, hasChromium, NEEDS_CHROMIUM, openApp } from '../helpers/browser.ts';
import { files } from '../helpers/catalogue-files.ts';
import { cliJson, REPO_ROOT } from '../helpers/cli.ts';
import { bsx } from '../helpers/documents.ts';
import { needs } from '../helpers/needs.ts';
import { png } from '../helpers/png.ts';

const SHOTS = path.join(REPO_ROOT, 'test-results', 'pictures');

describe.runIf(needs(hasChromium(), NEEDS_CHROMIUM, 'pictures on the screens'))('pictures of parts (issue 48)', () => {
  let dir: string;
  let app: Awaited<ReturnType<typeof openApp>> | undefined;
  let page: Page;
  const served: Record<string, Buffer> = {
    '/ItemImage/PN/5/3001.png': png([201, 26, 9]),
    '/ItemImage/PN/0/3001.png': png([160, 165, 169]),
    '/ItemImage/PN/0/3002.png': png([160, 165, 169]),
  };
  const pictures = http.createServer((req, res) => {
    const body = served[req.url ?? ''];
    if (body === undefined) res.writeHead(404).end();
    else res.writeHead(200, { 'Content-Type': 'image/png' }).end(body);
  });
  const tab = (name: string) => page.getByRole('navigation', { name: 'Screens' }).getByRole('button', { name });
  const shot = (name: string) => page.screenshot({ path: path.join(SHOTS, `${name}.png`) });

  beforeAll(async () => {
    buildScreens();
    fs.rmSync(SHOTS, { recursive: true, force: true });
    fs.mkdirSync(SHOTS, { recursive: true });
    dir = fs.mkdtempSync(path.join(REPO_ROOT, 'test-results', 'pictures-'));
    const base = await new Promise<string>((resolve) =>
      pictures.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(pictures.address() as AddressInfo).port}`)),
    );
    const store = path.join(dir, 'brick-work.sqlite');
    fs.writeFileSync(
      path.join(dir, 'items.xml'),
      files.bricklinkItemsXml([
        { type: 'P', no: '3001', name: 'Brick 2 x 4' },
        { type: 'P', no: '3002', name: 'Brick 2 x 3' },
        { type: 'P', no: '3003', name: 'Brick 2 x 2' },
      ]),
    );
    fs.writeFileSync(
      path.join(dir, 'colors.xml'),
      files.bricklinkColoursXml([
        { id: 5, name: 'Red' },
        { id: 1, name: 'White' },
      ]),
    );
    // BrickLink's codes: 3001 is made in Red, 3002 only in White; of 3003 they say nothing.
    fs.writeFileSync(
      path.join(dir, 'codes.txt'),
      files.bricklinkCodes([
        { no: '3001', colour: 'Red', element: '300121' },
        { no: '3002', colour: 'White', element: '300201' },
      ]),
    );
    for (const f of ['items.xml', 'colors.xml', 'codes.txt'])
      expect((await cliJson(['--db', store, 'catalogue', 'import', path.join(dir, f)])).code).toBe(0);
    expect((await cliJson(['--db', store, 'settings', 'picture-url', base])).code).toBe(0);
    fs.writeFileSync(
      path.join(dir, 'Bricks.bsx'),
      bsx([
        { no: '3001', name: 'Brick 2 x 4', qty: 2, colour: 5 },
        { no: 'brick-x', name: 'Brick 2 x', qty: 1, colour: 5 },
      ]),
    );
    expect((await cliJson(['--db', store, 'import', path.join(dir, 'Bricks.bsx')])).code).toBe(0);
    app = await openApp(store);
    page = app.page;
  }, 180_000);

  afterAll(async () => {
    await app?.close();
    pictures.closeAllConnections();
    pictures.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('the placed item in its colour beside the line; each suggestion its picture, or a placeholder that says why', async () => {
    await tab('Orders').click();
    await page.locator('tr.clickable', { hasText: 'Bricks.bsx' }).click();
    await page.locator('.line-row').first().click();
    const placed = page.locator('figure', { hasText: 'Placed on' }).getByTestId('picture');
    await placed.waitFor({ timeout: 15_000 });
    expect(await placed.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)).toBe(48);
    expect(await placed.getAttribute('alt')).toBe('P 3001');
    // As the BrickStore file gives it: BrickLink's 3001 in BrickLink's red.
    const given = page.locator('figure', { hasText: 'As given' }).getByTestId('picture');
    await given.waitFor({ timeout: 15_000 });
    expect(await given.getAttribute('alt')).toBe('As given: 3001');
    // Each line of the table its small picture: the placed item in its colour; an unplaced one as given.
    const rowPicture = page.locator('.line-row').first().locator('.c-pic').getByTestId('picture');
    await rowPicture.waitFor({ timeout: 15_000 });
    expect(await rowPicture.getAttribute('alt')).toBe('P 3001');
    await expect
      .poll(() => page.locator('.line-row').nth(1).locator('.c-pic [data-why]').getAttribute('data-why'))
      .toBe('the picture server has no picture of it');
    await shot('0-placed-with-picture');
    await page.locator('.line-row').nth(1).click();
    // brick-x is nobody's number: its placeholder says why.
    const unknown = page.locator('figure', { hasText: 'As given' }).getByTestId('picture-placeholder');
    await expect
      .poll(() => unknown.getAttribute('data-why'), { timeout: 15_000 })
      .toBe('the picture server has no picture of it');
    const suggestions = page.getByTestId('suggestions');
    await suggestions.getByTestId('picture').first().waitFor({ timeout: 15_000 });
    // 3003 has no picture on the server: a placeholder, saying so on hover.
    const none = suggestions.locator('li', { hasText: '3003' }).getByTestId('picture-placeholder');
    await expect
      .poll(() => none.getAttribute('data-why'), { timeout: 15_000 })
      .toBe('the picture server has no picture of it');
    expect(await none.getAttribute('title')).toBe('No picture: the picture server has no picture of it');
    // Each in the line's colour (Red) where it is made in it; 3002 is not: its usual picture, said so.
    const inRed = suggestions.locator('li', { hasText: '3001' }).getByTestId('picture');
    await inRed.waitFor({ timeout: 15_000 });
    expect(await inRed.getAttribute('alt')).toBe('P 3001');
    const usual = suggestions.locator('li', { hasText: '3002' }).getByTestId('picture');
    await usual.waitFor({ timeout: 15_000 });
    expect(await usual.getAttribute('alt')).toBe('P 3002 (its usual picture: it is not made in Red)');
    expect(await usual.getAttribute('class')).toContain('usual');
    await shot('1-suggestions-with-pictures');
    // Placed by hand on 3002: remembered, and the memory shows its item.
    await suggestions.locator('li', { hasText: '3002' }).click();
    // In Red, which the server has no picture of 3002 in: its usual picture, said so.
    const usualPlaced = page.locator('figure', { hasText: 'Placed on' }).getByTestId('picture');
    await usualPlaced.waitFor({ timeout: 15_000 });
    expect(await usualPlaced.getAttribute('alt')).toBe('P 3002 (its usual picture: none in this colour)');
  });

  it("Compare's rows show their items' pictures in their colours", async () => {
    await tab('Compare').click();
    await page.getByRole('region', { name: 'Compare' }).waitFor();
    const left = page.getByTestId('compare-left').locator('select');
    const right = page.getByTestId('compare-right').locator('select');
    await left.selectOption(
      (await left.locator('option', { hasText: 'Bricks.bsx —' }).first().getAttribute('value')) ?? '',
    );
    await right.selectOption(
      (await right.locator('option', { hasText: 'in Bricks.bsx' }).first().getAttribute('value')) ?? '',
    );
    await page.getByTestId('compare-run').click();
    await page.getByTestId('differences-only').uncheck();
    const same = page.getByTestId('group-same');
    const red3001 = same.locator('tr', { hasText: '3001' }).getByTestId('picture');
    await red3001.waitFor({ timeout: 15_000 });
    expect(await red3001.getAttribute('alt')).toBe('P 3001');
    // 3002 in Red: the server has none, its usual picture, said so.
    const usual = same.locator('tr', { hasText: '3002' }).getByTestId('picture');
    await usual.waitFor({ timeout: 15_000 });
    expect(await usual.getAttribute('alt')).toBe('P 3002 (its usual picture: none in this colour)');
    await shot('2-compare-with-pictures');
  });

  it('Settings shows what the cache holds, clears it, and turns network pictures off', async () => {
    await tab('Settings').click();
    const remembered = page.getByRole('table', { name: 'Remembered placements' });
    await expect.poll(() => remembered.getByTestId('picture').getAttribute('alt')).toBe('P 3002');
    const card = page.getByTestId('pictures-card');
    await expect
      .poll(() => card.getByTestId('pictures-status').textContent())
      .toMatch(/^2 pictures kept .*this start fetched \d+, 0 failed, 0 on their way/);
    await card.getByRole('button', { name: 'Clear pictures' }).click();
    await expect.poll(() => card.getByTestId('pictures-status').textContent()).toMatch(/^0 pictures kept \(0\.0 MB\)/);
    await card.getByLabel('Pictures from the network').selectOption('off');
    await expect.poll(() => card.getByLabel('Pictures from the network').inputValue()).toBe('off');
    await card.getByLabel('A picture on each line of an order').selectOption('off');
    await shot('3-settings-pictures');
    await tab('Orders').click();
    await page.locator('tr.clickable', { hasText: 'Bricks.bsx' }).click();
    await page.locator('.line-row').first().waitFor();
    expect(await page.locator('.line-row .c-pic').count()).toBe(0);
    expect(await page.locator('.line-head .c-pic').count()).toBe(0);
    expect((await cliJson(['--db', path.join(dir, 'brick-work.sqlite'), 'settings', 'pictures'])).json.value).toBe(
      'off',
    );
  });
});
