import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, NEEDS_CHROMIUM, hasChromium, startHost, buildScreens } from '../helpers/browser.ts';
import { REPO_ROOT } from '../helpers/cli.ts';
import { bsx } from '../helpers/documents.ts';
import { files, TABLES } from '../helpers/catalogue-files.ts';
import { needs } from '../helpers/needs.ts';
import { pressShortcut } from '../helpers/shortcut-keys.ts';

const SCREENSHOTS = path.join(REPO_ROOT, 'test-results', 'screenshots');

const PARTS = [
  { no: '3001', name: 'Brick 2 x 4' },
  { no: '3001b', name: 'Brick 2 x 4 with Cross Supports' },
  { no: '3003', name: 'Brick 2 x 2' },
  { no: '3020', name: 'Plate 2 x 4' },
  { no: '3023', name: 'Plate 1 x 2' },
  { no: '3710', name: 'Plate 1 x 4' },
  { no: '2431', name: 'Tile 1 x 4 with Groove' },
];

const DOCUMENT = bsx([
  { no: '3001', name: 'Brick 2 x 4', qty: 4, price: '0.10' },
  { no: '3001old', name: 'Brick 2 x 4 old style', qty: 2, price: '0.12' },
  { no: '3020', name: 'Plate 2 x 4', qty: 6, price: '0.05' },
  { no: '99999', name: 'Mystery part', qty: 1, price: '1.00' },
]);

function bigDocument(n: number): string {
  return bsx(
    Array.from({ length: n }, (_, i) => ({
      no: i % 10 === 0 ? `unknown-${i}` : (PARTS[i % PARTS.length]?.no ?? '3001'),
      qty: 1 + (i % 9),
    })),
  );
}

describe.runIf(needs(hasChromium(), NEEDS_CHROMIUM, 'the whole app in a browser'))(
  'the whole app in a real browser (Debian Chromium, through the browser host)',
  () => {
    let dir: string;
    let host: { url: string; child: ChildProcess };
    let browser: Awaited<ReturnType<typeof launchBrowser>>;
    let page: Page;

    const shot = async (name: string) => {
      await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`) });
    };
    const tab = (name: string) => page.getByRole('navigation', { name: 'Screens' }).getByRole('button', { name });
    const notice = () => page.getByTestId('notice');

    beforeAll(async () => {
      buildScreens();
      fs.mkdirSync(SCREENSHOTS, { recursive: true });
      dir = fs.mkdtempSync(path.join(REPO_ROOT, 'test-results', 'e2e-'));
      fs.writeFileSync(path.join(dir, 'parts.csv'), files.rebrickableParts(PARTS));
      fs.writeFileSync(path.join(dir, 'Falcon.bsx'), DOCUMENT);
      fs.writeFileSync(path.join(dir, 'Big 10000.bsx'), bigDocument(10_000));
      fs.writeFileSync(path.join(dir, 'Big 1000.bsx'), bigDocument(1_000));
      host = await startHost(path.join(dir, 'brick-work.sqlite'));
      browser = await launchBrowser();
      page = await browser.context.newPage();
      await page.goto(host.url);
    }, 120_000);

    afterAll(async () => {
      await browser?.close();
      host?.child.kill('SIGTERM');
      if (dir) fs.rmSync(dir, { recursive: true, force: true });
    });

    it('loads a catalogue, imports a document, fixes a line from the suggestions by keyboard, undoes, revives and exports', async () => {
      await page.getByText('No orders yet.').waitFor();
      await shot('1-orders-empty');

      // Load a catalogue.
      await tab('Catalogue & jobs').click();
      await page.getByTestId('catalogue-file').setInputFiles(path.join(dir, 'parts.csv'));
      await page.getByText(/^Loaded 7 items\.$/).waitFor();
      await page.getByTestId('catalogue-size').getByText('7', { exact: true }).waitFor();
      expect(await page.getByTestId('catalogue-size').textContent()).toContain('7 items');
      await shot('2-catalogue-and-jobs');

      // Import a document: the preview, then the confirm.
      await tab('Import').click();
      await page.getByTestId('import-file').setInputFiles(path.join(dir, 'Falcon.bsx'));
      const preview = page.getByTestId('preview');
      await preview.waitFor();
      expect(await preview.textContent()).toContain('4: 2 placed, 2 unplaced');
      expect(await preview.textContent()).toContain('a new order "Falcon.bsx" in USD');
      await shot('3-import-preview');
      await page.getByTestId('confirm-import').click();

      // The order: unplaced lines show their reasons.
      await page.getByRole('heading', { name: /Order Falcon\.bsx/ }).waitFor();
      const table = page.getByTestId('line-table');
      // The table gives a reason in a few words (its whole text is on hover and in the side panel).
      expect(await table.textContent()).toContain('Number unknown');
      expect(await table.locator('.line-row.unplaced .c-placed').first().getAttribute('title')).toBe(
        'The BrickLink number is not in the catalogue',
      );
      expect(await page.locator('.line-row.unplaced').count()).toBe(2);

      // Fix line 2 from its suggestions, keyboard only: the order opens on its first unplaced line (issue 25).
      await expect.poll(() => page.locator('.line-row[aria-selected="true"]').getAttribute('aria-rowindex')).toBe('2'); // 3001old "Brick 2 x 4 old style"
      await page.getByTestId('reason').waitFor();
      expect(await page.getByTestId('reason').textContent()).toBe('The BrickLink number is not in the catalogue');
      const suggestions = page.getByTestId('suggestions');
      await suggestions.getByText('3001b').waitFor();
      expect(await suggestions.textContent()).toMatch(/Longest prefix.*P 3001.*Brick 2 x 4/);
      await shot('4-order-with-suggestions');
      await page.keyboard.press('Enter'); // into the suggestions: the first is highlighted
      await page.keyboard.press('Enter'); // place the line on it
      await page.locator('[data-line-id] .tag', { hasText: 'by hand' }).waitFor();
      const row2 = page.locator('.line-row[aria-rowindex="2"]');
      expect(await row2.textContent()).toContain('P 3001');
      expect(await page.locator('.line-row.unplaced').count()).toBe(1);
      expect(await page.getByTestId('undo').textContent()).toContain('Undo Hand placement of 3001old');
      await shot('5-order-fixed-by-hand');

      // Undo and redo it, with the keyboard shortcuts.
      await pressShortcut(page, 'undo');
      await expect.poll(() => page.locator('.line-row.unplaced').count()).toBe(2);
      expect(await notice().textContent()).toContain('Undone: Hand placement of 3001old');
      await pressShortcut(page, 'redo');
      await expect.poll(() => page.locator('.line-row.unplaced').count()).toBe(1);
      expect(await notice().textContent()).toContain('Redone: Hand placement');
      await shot('6-undo-redo');

      // Undo the import too (and the hand placement before it): the order has no saved lines.
      await page.getByTestId('undo').click();
      await expect.poll(() => page.locator('.line-row.unplaced').count()).toBe(2);
      await page.getByTestId('undo').click();
      await page.getByText('Undone: Import of Falcon.bsx').waitFor();
      await tab('Orders').click();
      await page.locator('tr.clickable', { hasText: 'Falcon.bsx' }).waitFor();
      // Its only document undone: the order says so, rather than showing as an empty one.
      await page.locator('tr.clickable', { hasText: 'Falcon.bsx' }).getByTestId('order-undone-tag').waitFor();

      // Import it again: the app says it revives the undone document, and how the lines pair.
      await tab('Import').click();
      await page.getByTestId('import-file').setInputFiles(path.join(dir, 'Falcon.bsx'));
      const revival = page.getByTestId('revival');
      await revival.waitFor();
      expect(await revival.textContent()).toMatch(/This document was imported on .+ and undone on .+\./);
      expect(await revival.textContent()).toContain('its 4 lines pair by position');
      expect(await page.getByTestId('confirm-import').textContent()).toBe('Revive');
      await shot('7-revival');
      await page.getByTestId('confirm-import').click();
      await page.getByRole('heading', { name: /Order Falcon\.bsx/ }).waitFor();
      expect(await notice().textContent()).toContain('Revived Falcon.bsx');
      await expect.poll(() => page.locator('.line-row').count()).toBe(4);
      // The revived line was unplaced again (its hand placement was undone): fix it once more, by keyboard
      // (the order opens on it: its first unplaced line).
      await expect.poll(() => page.locator('.line-row[aria-selected="true"]').getAttribute('aria-rowindex')).toBe('2');
      await page.getByTestId('suggestions').getByText('3001b').waitFor();
      await page.keyboard.press('Enter');
      await page.keyboard.press('Enter');
      await expect.poll(() => page.locator('.line-row.unplaced').count()).toBe(1);

      // Export the summary.
      await tab('Export').click();
      const download = page.waitForEvent('download');
      await page.getByRole('button', { name: 'Export the summary…' }).click();
      const file = await (await download).path();
      const csv = fs.readFileSync(file, 'utf8');
      expect(csv).toContain(
        'reference,counterparty,currency,documents,lines,placed,unplaced,total quantity,total value',
      );
      expect(csv).toContain('Falcon.bsx,,USD,1,4,3,1,13,1.94');
      expect(await page.getByTestId('export-preview').textContent()).toContain('Falcon.bsx,,USD,1,4');
      await shot('8-export');

      await tab('Settings').click();
      await page.getByRole('table', { name: 'Remembered placements' }).waitFor();
      expect(await page.getByRole('table', { name: 'Remembered placements' }).textContent()).toContain('P 3001old');
      await shot('9-settings');
    });

    it('keeps a 10,000-line order smooth: the rows in the page stay bounded, and scrolling and filtering stay fast', async () => {
      const timings: Record<string, { open: number; filter: number; scroll: number; rows: number }> = {};
      for (const name of ['Big 1000.bsx', 'Big 10000.bsx']) {
        await tab('Import').click();
        await page.getByTestId('import-file').setInputFiles(path.join(dir, name));
        await page.getByTestId('preview').waitFor();
        const t0 = Date.now();
        await page.getByTestId('confirm-import').click();
        await page.getByRole('heading', { name: new RegExp(`Order ${name.replace('.', '\\.')}`) }).waitFor();
        await page.locator('.line-row').first().waitFor();
        const open = Date.now() - t0;
        // Counted once the virtual table has settled: right after the first row it may still be adding some.
        let rows = await page.locator('.line-row').count();
        for (let again = -1; again !== rows;) {
          again = rows;
          await page.waitForTimeout(100);
          rows = await page.locator('.line-row').count();
        }

        const s0 = Date.now();
        await page.getByTestId('line-table').evaluate((el) => (el.scrollTop = el.scrollHeight));
        const total = Number(name.match(/\d+/)?.[0]);
        await page.locator(`.line-row[aria-rowindex="${total}"]`).waitFor();
        const scroll = Date.now() - s0;

        const f0 = Date.now();
        await page.getByLabel('Unplaced only').check();
        await expect
          .poll(() => page.getByTestId('line-table').getAttribute('aria-rowcount'), { interval: 10 })
          .toBe(String(total / 10));
        const filter = Date.now() - f0;
        timings[name] = { open, filter, scroll, rows };
        if (total === 10_000) await shot('10-order-10000-lines');
        await page.getByLabel('Unplaced only').uncheck();
      }
      console.log(`render times: ${JSON.stringify(timings)}`);
      const small = timings['Big 1000.bsx'];
      const big = timings['Big 10000.bsx'];
      // Only the rows in view are in the page, however long the order.
      expect(big?.rows).toBeLessThanOrEqual(60);
      expect(big?.rows).toBe(small?.rows);
      // Scrolling to the end and filtering do not grow with the order (beyond fetching its lines).
      expect(big?.scroll).toBeLessThan(1_000);
      expect(big?.filter).toBeLessThan(3_000);
    });

    it('an Import whose reader had to assume says so beside a box to tick, and imports only once every one is ticked (issue 23)', async () => {
      // An older Rebrickable-shaped tool list with no quantity column and a bare colour column of numbers.
      fs.writeFileSync(
        path.join(dir, 'Wanted parts.csv'),
        'Part No,Name,Color,Weight\n3001,Brick 2 x 4,1,2.3\n3023,Plate 1 x 2,5,0.4\n',
      );
      await tab('Import').click();
      await page.getByTestId('import-file').setInputFiles(path.join(dir, 'Wanted parts.csv'));
      const preview = page.getByTestId('preview');
      await preview.waitFor();
      const warnings = page.getByRole('list', { name: 'What the reader assumed' });
      await warnings.waitFor();
      expect(await warnings.getByRole('listitem').allTextContents()).toEqual([
        'This list has no quantity column: every line will count 1. I have checked this.',
        expect.stringMatching(
          /^The "Color" column gives colour numbers without saying whose: they are read as BrickLink's\./,
        ),
      ]);
      expect(await page.getByTestId('columns-not-read').textContent()).toBe('Weight');
      expect(await page.getByLabel('Colour numbers are').inputValue()).toBe('bricklink');
      expect(await preview.textContent()).toContain('a guess: the list does not say');
      const confirm = page.getByTestId('confirm-import');
      expect(await confirm.isDisabled()).toBe(true);
      await shot('11-import-warnings');

      // Choosing Rebrickable's numbering: no guess left, the numbers wait in the remarks.
      await page.getByLabel('Colour numbers are').selectOption('rebrickable');
      await expect.poll(() => warnings.getByRole('listitem').count()).toBe(1);
      expect(await preview.textContent()).toContain('Rebrickable colour 1');
      expect(await confirm.isDisabled()).toBe(true);

      // The remaining box, by keyboard: focus it and press Space.
      const box = warnings.getByRole('checkbox');
      await box.focus();
      await page.keyboard.press('Space');
      expect(await box.isChecked()).toBe(true);
      expect(await confirm.isDisabled()).toBe(false);
      await confirm.click();
      await page.getByRole('heading', { name: /Order Wanted parts\.csv/ }).waitFor();
      expect(await page.getByTestId('line-table').textContent()).toContain('Plate 1 x 2');
    });

    it('a Pick a Brick list of element ids is placed through the tables that translate, and says how (issue 24)', async () => {
      fs.writeFileSync(path.join(dir, 'codes.txt'), TABLES.codes);
      fs.writeFileSync(
        path.join(dir, 'colors.txt'),
        files.bricklinkColoursTab([
          { id: 5, name: 'Red' },
          { id: 11, name: 'Black' },
        ]),
      );
      fs.writeFileSync(path.join(dir, 'pab.csv'), 'elementId,quantity\n300121,4\n');
      await tab('Catalogue & jobs').click();
      await page
        .getByTestId('catalogue-file')
        .setInputFiles([path.join(dir, 'colors.txt'), path.join(dir, 'codes.txt')]);
      await page.getByTestId('catalogue-translations').waitFor();
      expect(await page.getByTestId('catalogue-translations').textContent()).toContain('3 element ids');
      await shot('12-catalogue-with-translations');
      await tab('Import').click();
      await page.getByTestId('import-file').setInputFiles(path.join(dir, 'pab.csv'));
      const preview = page.getByTestId('preview');
      await preview.waitFor();
      expect(await preview.textContent()).toContain('elementId (LEGO element id)');
      expect(await preview.textContent()).toContain('element 300121');
      await shot('13-import-element-ids');
      await page.getByTestId('confirm-import').click();
      await page.getByRole('heading', { name: /Order pab\.csv/ }).waitFor();
      const row = page.locator('.line-row').first();
      expect(await row.textContent()).toContain('element 300121');
      expect(await row.textContent()).toContain('Red');
      // How it was placed is never cut (issue 47, point 5): the row's line, focused, shows it whole beside.
      const via = (await row.locator('.tag.via').textContent()) ?? '';
      expect(via).toContain('element 300121');
      await row.click();
      const details = page.getByTestId('line-details');
      await details.waitFor();
      expect(await details.locator('dd').last().textContent()).toBe(via);
      expect(await details.locator('dt').last().textContent()).toBe('Placed through');
      await shot('14-line-placed-by-element');
    });

    it('a document dropped anywhere on the window opens in the Import preview (issue 44)', async () => {
      await tab('Settings').click();
      await page.getByRole('heading', { name: 'Settings' }).waitFor();
      // As Chromium makes them for a file dragged from Finder (the page's code, given as text: no DOM types here).
      const dropped = await page.evaluate(`(() => {
        const transfer = new DataTransfer();
        transfer.items.add(new File(['Part,Quantity\\n3001,3\\n'], 'Dropped list.csv', { type: 'text/csv' }));
        const at = document.querySelector('h2');
        const over = new DragEvent('dragover', { dataTransfer: transfer, bubbles: true, cancelable: true });
        at.dispatchEvent(over);
        const drop = new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true });
        at.dispatchEvent(drop);
        return { overTaken: over.defaultPrevented, dropTaken: drop.defaultPrevented };
      })()`);
      expect(dropped).toEqual({ overTaken: true, dropTaken: true });
      const preview = page.getByTestId('preview');
      await preview.waitFor();
      expect(await preview.textContent()).toContain('Dropped list.csv');
      expect(await preview.textContent()).toContain('3001');
      await shot('15-import-dropped-anywhere');
    });
  },
);
