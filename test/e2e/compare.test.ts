/**
 * The Compare view walked by keyboard (issue 28, SPEC §9.8) in Debian's Chromium through the browser host:
 * from an order ("Compare with…") against a file that is not imported, the groups with their counts and
 * the totals, stepping through the rows, the lines that agree shown and hidden, an export of what is
 * missing, a row opened in its order; and from the screens' menu, an order against one of its documents.
 * Nothing is written by any of it. Screens are saved in test-results/compare/.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NEEDS_CHROMIUM, hasChromium, openApp, buildScreens, fileChooserFrom } from '../helpers/browser.ts';
import { files } from '../helpers/catalogue-files.ts';
import { cliJson, REPO_ROOT } from '../helpers/cli.ts';
import { bsx, inventoryXml } from '../helpers/documents.ts';
import { needs } from '../helpers/needs.ts';
import { sha256 } from '../helpers/temp.ts';

const SHOTS = path.join(REPO_ROOT, 'test-results', 'compare');

const COLOURS = [
  { id: 1, name: 'White' },
  { id: 5, name: 'Red' },
  { id: 11, name: 'Black' },
  { id: 86, name: 'Light Bluish Gray' },
];
const PARTS = [
  { no: '3001', name: 'Brick 2 x 4' },
  { no: '3003', name: 'Brick 2 x 2' },
  { no: '3020', name: 'Plate 2 x 4' },
  { no: '3024', name: 'Plate 1 x 1' },
  { no: '6141', name: 'Plate Round 1 x 1 with Solid Stud' },
];

describe.runIf(needs(hasChromium(), NEEDS_CHROMIUM, 'the compare walk'))('the Compare view (issue 28)', () => {
  let dir: string;
  let dbPath: string;
  let app: Awaited<ReturnType<typeof openApp>> | undefined;
  let page: Page;
  let shotNo = 0;
  const shot = async (name: string) => {
    shotNo += 1;
    await page.screenshot({ path: path.join(SHOTS, `${String(shotNo).padStart(2, '0')}-${name}.png`) });
  };
  const tab = (name: string) => page.getByRole('navigation', { name: 'Screens' }).getByRole('button', { name });
  const group = (g: string) => page.getByTestId(`group-${g}`);
  const selectedRow = () => page.locator('.compare-group tr[aria-selected="true"]');
  const arrived = () => path.join(dir, 'Picked for Falcon.xml');

  beforeAll(async () => {
    buildScreens();
    fs.rmSync(SHOTS, { recursive: true, force: true });
    fs.mkdirSync(SHOTS, { recursive: true });
    dir = fs.mkdtempSync(path.join(REPO_ROOT, 'test-results', 'compare-'));
    dbPath = path.join(dir, 'brick-work.sqlite');
    fs.writeFileSync(path.join(dir, 'parts.csv'), files.rebrickableParts(PARTS));
    fs.writeFileSync(path.join(dir, 'colors.txt'), files.bricklinkColoursTab(COLOURS));
    // BrickLink's codes list 3001 and 3020: BrickLink's numbers for those Rebrickable parts are known (issue 43).
    fs.writeFileSync(
      path.join(dir, 'codes.txt'),
      files.bricklinkCodes([
        { no: '3001', colour: 'Red', element: '300121' },
        { no: '3020', colour: 'Black', element: '302026' },
      ]),
    );
    // What was ordered: six lots, one of a number the catalogue lacks.
    fs.writeFileSync(
      path.join(dir, 'Falcon.bsx'),
      bsx(
        [
          { no: '3001', name: 'Brick 2 x 4', colour: 5, colourName: 'Red', qty: 10, price: '0.20' },
          { no: '3003', name: 'Brick 2 x 2', colour: 1, colourName: 'White', qty: 4, price: '0.10' },
          { no: '3020', name: 'Plate 2 x 4', colour: 11, colourName: 'Black', qty: 2, price: '0.15' },
          { no: '3024', name: 'Plate 1 x 1', colour: 86, colourName: 'Light Bluish Gray', qty: 30, price: '0.02' },
          { no: '6141', name: 'Plate Round 1 x 1', colour: 1, colourName: 'White', qty: 12, price: '0.03' },
          { no: 'x999', name: 'Mystery part', colour: 5, colourName: 'Red', qty: 1, price: '1.00' },
        ],
        'EUR',
      ),
    );
    // What was picked: 3001 two short, no 3020, the 1 x 1 plates all there, and a part not ordered.
    fs.writeFileSync(
      arrived(),
      inventoryXml([
        { no: '3001', colour: 5, qty: 8, price: '0.20' },
        { no: '3003', colour: 1, qty: 4, price: '0.10' },
        { no: '3024', colour: 86, qty: 30, price: '0.02' },
        { no: '6141', colour: 1, qty: 12, price: '0.03' },
        { no: '3003', colour: 11, qty: 3, price: '0.12' },
      ]),
    );
    for (const args of [
      ['catalogue', 'import', path.join(dir, 'parts.csv'), path.join(dir, 'colors.txt'), path.join(dir, 'codes.txt')],
      ['import', path.join(dir, 'Falcon.bsx')],
    ]) {
      const r = await cliJson(['--db', dbPath, ...args]);
      expect(r.code, r.stderr).toBe(0);
    }
    app = await openApp(dbPath);
    page = app.page;
  }, 180_000);

  afterAll(async () => {
    await app?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('from an order against a file not imported: groups, totals, keyboard, export, and a row opened in its order', async () => {
    const before = sha256(dbPath);
    await page.locator('tr.clickable', { hasText: 'Falcon.bsx' }).click();
    await page.getByRole('heading', { name: /Order Falcon\.bsx/ }).waitFor();
    await page.getByTestId('order-compare').click();
    // The order is the left side; the right is a file, picked with the side's button.
    await page.getByRole('region', { name: 'Compare' }).waitFor();
    await expect.poll(() => page.getByTestId('compare-left').locator('select').inputValue()).toMatch(/^order:\d+$/);
    const chooser = await fileChooserFrom(page, async () => {
      await page.getByTestId('compare-right-file-button').focus();
      await page.keyboard.press('Enter');
    });
    await chooser.setFiles(arrived());
    await expect.poll(() => page.getByTestId('compare-right').locator('select').inputValue()).toBe('file');
    // The file chosen, the focus is on the next step, Compare (issue 64 §1): Enter runs it.
    await expect
      .poll(() => page.getByTestId('compare-run').evaluate((el) => el === el.ownerDocument.activeElement))
      .toBe(true);
    await page.keyboard.press('Enter');
    await page.getByTestId('compare-totals').waitFor();
    await shot('compared');

    // The groups with their counts, the differences first; the lines that agree hidden until asked for.
    await expect.poll(() => group('onlyLeft').getByRole('heading').innerText()).toBe('Only on the left 1');
    await expect.poll(() => group('onlyRight').getByRole('heading').innerText()).toBe('Only on the right 1');
    await expect.poll(() => group('quantityDiffers').getByRole('heading').innerText()).toBe('Quantity differs 1');
    expect(await group('unplaced').locator('tbody tr').count()).toBe(1);
    expect(await group('same').count()).toBe(0);
    // Colours by name with their swatch.
    expect(await group('onlyLeft').locator('tbody tr').innerText()).toMatch(
      /3020\s+Plate 2 x 4\s+Black\s+New\s+2\s+0\s+−2/,
    );
    expect(await group('onlyLeft').locator('.swatch').count()).toBe(1);
    const totals = await page.getByTestId('compare-totals').innerText();
    expect(totals).toMatch(/Left: order Falcon\.bsx\s+6 lots, 59 pieces/);
    expect(totals).toMatch(/Right: file Picked for Falcon\.xml\s+5 lots, 57 pieces/);
    expect(totals).toMatch(/Missing on the right\s+5 pieces · €1\.70/);
    expect(totals).toMatch(/Extra on the right\s+3 pieces · €0\.36/);

    // Keyboard: the rows are one list, with the focus on it after the compare.
    await expect
      .poll(() => page.getByTestId('compare-groups').evaluate((el) => el === el.ownerDocument.activeElement))
      .toBe(true);
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => selectedRow().innerText()).toMatch(/^3020/);
    await page.keyboard.press('ArrowDown');
    // BrickLink's codes list no 3003, but the picked file gave BrickLink's 3003 for it: the lot's number is
    // the file's, as its export writes it (issue 60 §4), not Rebrickable's shown as whose it is (issue 43).
    await expect.poll(() => selectedRow().innerText()).toMatch(/^3003\s+Brick 2 x 2\s+Black/);
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => selectedRow().innerText()).toMatch(/^3001\s+Brick 2 x 4\s+Red\s+New\s+10\s+8\s+−2/);
    await page.keyboard.press('End');
    await expect.poll(() => selectedRow().innerText()).toMatch(/^x999\s+Mystery part/);
    await page.keyboard.press('Home');
    await expect.poll(() => selectedRow().innerText()).toMatch(/^3020/);
    await shot('stepped');

    // The lines that agree, shown and hidden again.
    await page.getByTestId('differences-only').uncheck();
    await expect.poll(() => group('same').getByRole('heading').innerText()).toBe('The same on both sides 3');
    await shot('all-rows');
    await page.getByTestId('differences-only').check();
    await expect.poll(() => group('same').count()).toBe(0);

    // What is missing, as a BrickLink wanted list, downloaded by the page (the browser host has no dialog).
    const download = page.waitForEvent('download');
    await page.getByTestId('export-wanted').click();
    const wanted = await download;
    expect(wanted.suggestedFilename()).toBe('Falcon vs Picked for Falcon – wanted list.xml');
    const xml = fs.readFileSync((await wanted.path()) ?? '', 'utf8');
    expect(xml).toMatch(/<ITEMID>3020<\/ITEMID>\s*<COLOR>11<\/COLOR>\s*<MINQTY>2<\/MINQTY>/);
    expect(xml).toMatch(/<ITEMID>3001<\/ITEMID>\s*<COLOR>5<\/COLOR>\s*<MINQTY>2<\/MINQTY>/);
    await expect.poll(() => page.getByTestId('notice').innerText()).toMatch(/1 lot is left out \(1 not placed\)/);

    // Rebrickable's list needs Rebrickable's colour ids, and no colour table is loaded: it asks first.
    await page.getByTestId('export-rebrickable').click();
    const ask = page.getByTestId('export-ask');
    await ask.waitFor();
    expect(await ask.innerText()).toMatch(
      /^2 lots can't be written in Rebrickable's numbering.*P 3020 Plate 2 x 4 \(Black\) \(missing on the right\): no known colour id/,
    );
    await shot('export-asks');
    await ask.getByRole('button', { name: 'Cancel' }).click();
    await ask.waitFor({ state: 'detached' });

    // Enter opens the selected row's line in its order.
    await page.getByTestId('compare-groups').focus();
    await page.keyboard.press('Home');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => selectedRow().innerText()).toMatch(/^3001/);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: /Order Falcon\.bsx/ }).waitFor();
    await expect.poll(() => page.locator('.line-row[aria-selected="true"]').getAttribute('aria-rowindex')).toBe('1');
    await shot('opened-in-order');

    // Nothing was written by any of it.
    expect(sha256(dbPath)).toBe(before);
  }, 120_000);

  it('from the menu: an order against one of its documents, all the same', async () => {
    await tab('Compare').click();
    await page.getByRole('region', { name: 'Compare' }).waitFor();
    const left = page.getByTestId('compare-left').locator('select');
    const right = page.getByTestId('compare-right').locator('select');
    const orderOption = await left.locator('option', { hasText: 'Falcon.bsx —' }).first().getAttribute('value');
    await left.selectOption(orderOption ?? '');
    const docOption = await right.locator('option', { hasText: 'in Falcon.bsx' }).first().getAttribute('value');
    await right.selectOption(docOption ?? '');
    await page.getByTestId('compare-run').click();
    await expect.poll(() => page.getByTestId('compare-summary').innerText()).toBe('No differences in quantity.');
    // Nothing differs: no export of the difference is offered (the CSV would be a header alone).
    for (const id of ['export-csv', 'export-wanted', 'export-upload'])
      expect(await page.getByTestId(id).isDisabled(), id).toBe(true);
    await page.getByTestId('differences-only').uncheck();
    await expect.poll(() => group('same').getByRole('heading').innerText()).toBe('The same on both sides 5');
    await shot('order-vs-document');
  }, 60_000);
});
