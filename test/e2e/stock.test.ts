/**
 * Issue 65 §4: the stock, picking and putting away on screen, in Chromium through the browser host — a
 * stock imported from its card (a BrickLink inventory download with the bins in REMARKS), an order picked
 * by keyboard alone, its list printed, and an incoming order put away and exported.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildScreens, hasChromium, NEEDS_CHROMIUM, openApp, openOrderByReference } from '../helpers/browser.ts';
import { files } from '../helpers/catalogue-files.ts';
import { CONTRAST_CHECK, failureLines, type ContrastReport } from '../helpers/contrast.ts';
import { cliJson, REPO_ROOT } from '../helpers/cli.ts';
import { startStandIn, TEST_CREDENTIALS } from '../helpers/bricklink-stand-in.ts';
import { orderXml } from '../helpers/documents.ts';
import { needs } from '../helpers/needs.ts';
import { STOCK_UNCHANGED_NOTE } from '../../src/stock/put-away-plan.ts';

const SHOTS = path.join(REPO_ROOT, 'test-results', 'stock');

/** A 500-stop walk, for the keys' answer times: part k1…k500, one in each of bins D-1…D-500. */
const BIG = Array.from({ length: 500 }, (_, i) => i + 1);

/** The shop's inventory as BrickLink's store inventory download gives it: lot ids, the bin in REMARKS. */
const INVENTORY = `<?xml version="1.0" encoding="UTF-8"?>
<INVENTORY>
<ITEM><LOTID>7001</LOTID><ITEMTYPE>P</ITEMTYPE><ITEMID>3001</ITEMID><COLOR>5</COLOR><QTY>40</QTY><PRICE>0.1</PRICE><CONDITION>N</CONDITION><REMARKS>A10</REMARKS></ITEM>
<ITEM><LOTID>7002</LOTID><ITEMTYPE>P</ITEMTYPE><ITEMID>3001</ITEMID><COLOR>5</COLOR><QTY>3</QTY><PRICE>0.1</PRICE><CONDITION>N</CONDITION><REMARKS>A2</REMARKS></ITEM>
<ITEM><LOTID>7003</LOTID><ITEMTYPE>P</ITEMTYPE><ITEMID>3003</ITEMID><COLOR>5</COLOR><QTY>10</QTY><PRICE>0.1</PRICE><CONDITION>N</CONDITION><REMARKS>B-1-10</REMARKS></ITEM>
<ITEM><LOTID>7004</LOTID><ITEMTYPE>P</ITEMTYPE><ITEMID>3004</ITEMID><COLOR>5</COLOR><QTY>6</QTY><PRICE>0.1</PRICE><CONDITION>N</CONDITION><REMARKS>B-1-9</REMARKS></ITEM>
<ITEM><LOTID>7005</LOTID><ITEMTYPE>P</ITEMTYPE><ITEMID>3020</ITEMID><COLOR>11</COLOR><QTY>8</QTY><PRICE>0.1</PRICE><CONDITION>N</CONDITION><REMARKS>C3</REMARKS></ITEM>
${BIG.map((i) => `<ITEM><LOTID>${8000 + i}</LOTID><ITEMTYPE>P</ITEMTYPE><ITEMID>k${i}</ITEMID><COLOR>5</COLOR><QTY>1</QTY><PRICE>0.1</PRICE><CONDITION>N</CONDITION><REMARKS>D-${i}</REMARKS></ITEM>`).join('\n')}
</INVENTORY>
`;

describe.runIf(needs(hasChromium(), NEEDS_CHROMIUM, 'the stock, pick and put-away screens'))(
  'the stock, picking and putting away (issue 65 §4)',
  () => {
    let dir: string;
    let app: Awaited<ReturnType<typeof openApp>>;
    let page: Page;
    let write: (name: string, text: string) => string;
    let db: string;

    beforeAll(async () => {
      buildScreens();
      fs.rmSync(SHOTS, { recursive: true, force: true });
      fs.mkdirSync(SHOTS, { recursive: true });
      dir = fs.mkdtempSync(path.join(REPO_ROOT, 'test-results', 'stock-'));
      db = path.join(dir, 'brick-work.sqlite');
      write = (name: string, text: string) => {
        fs.writeFileSync(path.join(dir, name), text);
        return path.join(dir, name);
      };
      const run = async (args: string[]) => {
        const r = await cliJson(['--db', db, ...args]);
        if (r.code !== 0) throw new Error(`${args.join(' ')}: ${JSON.stringify(r.json)}`);
      };
      const parts = [
        { no: '3001', name: 'Brick 2 x 4' },
        { no: '3003', name: 'Brick 2 x 2' },
        { no: '3004', name: 'Brick 1 x 2' },
        { no: '3020', name: 'Plate 2 x 4' },
        ...BIG.map((i) => ({ no: `k${i}`, name: `Tile ${i}` })),
      ];
      await run(['catalogue', 'import', write('parts.csv', files.rebrickableParts(parts))]);
      // Going out: 3001 from two bins (A2's 3 first, then A10), 3004 short, a number the catalogue lacks.
      await run([
        'import',
        write(
          'out.xml',
          orderXml([
            {
              id: '9001',
              buyer: 'a customer',
              lines: [
                { no: '3001', colour: 5, qty: 5 },
                { no: '3003', colour: 5, qty: 4 },
                { no: '3004', colour: 5, qty: 8 },
                { no: 'x999', colour: 5, qty: 1 },
              ],
            },
          ]),
        ),
      ]);
      // Coming in: 3001 to its lots, 3020 in a colour the stock has not (a new lot beside its other colour).
      await run([
        'import',
        write(
          'in.xml',
          orderXml([
            {
              id: '9002',
              seller: 'another seller',
              lines: [
                { no: '3001', colour: 5, qty: 12 },
                { no: '3020', colour: 5, qty: 4 },
                { no: 'x999', colour: 5, qty: 2 },
              ],
            },
          ]),
        ),
      ]);
      await run([
        'import',
        write(
          'big.xml',
          orderXml([
            { id: '9003', buyer: 'a big customer', lines: BIG.map((i) => ({ no: `k${i}`, colour: 5, qty: 1 })) },
          ]),
        ),
      ]);
      app = await openApp(db);
      page = app.page;
    }, 180_000);

    afterAll(async () => {
      await app?.close();
      if (dir) fs.rmSync(dir, { recursive: true, force: true });
    });

    /** Every text on screen reads in the light and in the dark (WCAG contrast, as the appearance test measures). */
    const readsInBothSchemes = async (screen: string) => {
      const failed: string[] = [];
      for (const scheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        await page.waitForTimeout(100);
        const report = (await page.evaluate(CONTRAST_CHECK)) as ContrastReport;
        expect(report.checked).toBeGreaterThan(5);
        failed.push(...failureLines(scheme, screen, report.failures));
        if (scheme === 'dark') await shot(`${screen}-dark`);
      }
      await page.emulateMedia({ colorScheme: 'light' });
      expect(failed).toEqual([]);
    };

    const shot = (name: string) => page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });

    it('imports the stock from its card: a preview first, then Import, and the card says what it holds', async () => {
      await page.getByRole('navigation', { name: 'Screens' }).getByRole('button', { name: 'Catalogue & jobs' }).click();
      const card = page.getByTestId('stock-card');
      await card.getByTestId('stock-none').waitFor();
      await page.getByTestId('stock-file').setInputFiles(write('inventory.xml', INVENTORY));
      const keeps = page.getByTestId('stock-preview-keeps');
      await keeps.waitFor();
      expect(await keeps.textContent()).toBe(
        'Locations from each lot’s remarks: 505 locations; 505 with BrickLink’s lot id. It is the first stock.',
      );
      // Its document is named by the file chosen, never by its key (a hash of its content).
      const headings = await page.getByTestId('stock-preview').getByRole('heading').allTextContents();
      expect(headings).toEqual(['The stock from inventory.xml', expect.stringMatching(/^inventory\.xml /)]);
      // Read: the next key imports it.
      await page.getByTestId('stock-confirm').and(page.locator(':focus')).waitFor();
      await shot('01-stock-preview');
      // Locations from a column the file lacks: said in words; back to the remarks, the preview as before.
      await page.getByTestId('stock-location-from').selectOption('column');
      await page.getByTestId('stock-location-column').fill('Bin');
      await page.getByTestId('stock-location-column').press('Enter');
      await page
        .getByText(/has no field "Bin" to read the location from/)
        .first()
        .waitFor();
      await page.getByTestId('stock-location-from').selectOption('remarks');
      await keeps.waitFor();
      await page.getByTestId('stock-confirm').and(page.locator(':focus')).waitFor();
      await page.keyboard.press('Enter');
      await card.getByTestId('stock-holds').waitFor();
      expect(await card.getByTestId('stock-holds').textContent()).toBe(
        '505 lots, 567 pieces in 505 locations; 0 unplaced.',
      );
      expect(await card.getByTestId('stock-from').textContent()).toMatch(/^Imported .* from inventory\.xml/);
      await shot('02-stock-card');
      // Imported: the focus is on the card's next step, its lots (never the page's body).
      await card.getByTestId('stock-open').and(page.locator(':focus')).waitFor();
      // The import is one undo step: Undo takes the stock back, Redo puts it back.
      expect(await page.getByTestId('undo').textContent()).toContain('inventory.xml');
      await page.getByTestId('undo').click();
      await card.getByTestId('stock-none').waitFor();
      await page.getByTestId('redo').click();
      await card.getByTestId('stock-holds').waitFor();
      // Its lots open as an order's lines — with no Pick or Put away there: they are the stock.
      await card.getByTestId('stock-open').click();
      await page.getByRole('heading', { name: /Order Stock/ }).waitFor();
      expect(await page.getByTestId('order-compare').count()).toBe(1);
      expect(await page.getByTestId('order-pick').count()).toBe(0);
      expect(await page.getByTestId('order-put-away').count()).toBe(0);
    });

    /** Opens an order from the Orders screen by its reference. */
    const openOrder = (reference: string) => openOrderByReference(page, reference);

    /** The walk as shown: each stop's location and state. */
    const walk = async () =>
      page
        .getByTestId('pick-row')
        .evaluateAll((rows) =>
          rows.map(
            (r) => `${r.querySelector('.pick-location')?.textContent ?? ''}:${r.getAttribute('data-state') ?? ''}`,
          ),
        );
    const progress = () => page.getByTestId('pick-progress').textContent();

    it('picks an order by keyboard alone: Space, ↓, a part quantity by digits and Enter; the marks stay', async () => {
      await openOrder('9001');
      // Pick from the order's toolbar, by keyboard.
      await page.getByTestId('order-pick').focus();
      await page.keyboard.press('Enter');
      await page.getByTestId('pick-row').first().waitFor();
      // The walk has the focus; A2 before A10, B-1-9 before B-1-10 (natural order).
      await page.getByTestId('pick-walk').and(page.locator(':focus')).waitFor();
      expect(await walk()).toEqual(['A2:open', 'A10:open', 'B-1-9:open', 'B-1-10:open']);
      expect(await progress()).toBe('0 of 4 lots, 0 of 15 pieces');
      // Short: the bins hold 6 of the 8 asked; the number the catalogue lacks is apart, with its reason.
      expect(await page.getByTestId('pick-row').nth(2).textContent()).toContain('short');
      expect(await page.getByTestId('pick-unplaced').textContent()).toContain('x999');
      expect(await page.getByTestId('pick-stop-location').textContent()).toBe('A2');
      await shot('03-picking-opened');

      await page.keyboard.press('Space');
      // At once: the row marked, and the next stop selected.
      expect(await walk()).toEqual(['A2:picked', 'A10:open', 'B-1-9:open', 'B-1-10:open']);
      expect(await page.getByTestId('pick-stop-location').textContent()).toBe('A10');
      await page.keyboard.press('ArrowDown');
      expect(await page.getByTestId('pick-stop-location').textContent()).toBe('B-1-9');
      await page.keyboard.press('4');
      expect(await page.getByTestId('pick-typing').textContent()).toBe('4▏ of 6');
      await page.keyboard.press('Enter');
      expect(await walk()).toEqual(['A2:picked', 'A10:open', 'B-1-9:part', 'B-1-10:open']);
      await expect.poll(progress).toBe('1 of 4 lots, 7 of 15 pieces');
      // Answered by the core: the marks are steps of this desk's history.
      await expect.poll(() => page.getByTestId('undo').textContent()).toMatch(/^Undo Pick 4 × /);
      await shot('03-picking-marked');

      // A mark survives a reload: the list read again from the store.
      await page.reload();
      await openOrder('9001');
      await page.getByTestId('order-pick').click();
      await page.getByTestId('pick-row').first().waitFor();
      await expect.poll(walk).toEqual(['A2:picked', 'A10:open', 'B-1-9:part', 'B-1-10:open']);
      expect(await progress()).toBe('1 of 4 lots, 7 of 15 pieces');

      // More than the stop takes is said in words, nothing marked; Escape lets the typed number go.
      await page.getByTestId('pick-walk').and(page.locator(':focus')).waitFor();
      expect(await page.getByTestId('pick-stop-location').textContent()).toBe('A10');
      await page.keyboard.press('9');
      await page.keyboard.press('Enter');
      expect(await page.getByRole('alert').textContent()).toContain(
        'Only 2 to take from A10: type 1 to 2, or Space for all of them.',
      );
      await page.keyboard.press('Escape');
      expect(await page.getByTestId('pick-typing').count()).toBe(0);
      expect(await walk()).toEqual(['A2:picked', 'A10:open', 'B-1-9:part', 'B-1-10:open']);

      // Undo in the header takes the last mark back.
      await page.getByTestId('undo').click();
      await expect.poll(walk).toEqual(['A2:picked', 'A10:open', 'B-1-9:open', 'B-1-10:open']);
      expect(await progress()).toBe('1 of 4 lots, 3 of 15 pieces');

      // Another desk marks B-1-10 (the CLI, as desk SHOP-2): this screen shows it by itself, with the desk.
      const key = await page.getByTestId('pick-row').nth(3).getAttribute('data-key');
      const orders = await cliJson(['--db', db, 'orders']);
      const order = (orders.json as { orders: { id: number; reference: string }[] }).orders.find(
        (o) => o.reference === '9001',
      );
      const other = await cliJson(['--db', db, '--desk', 'SHOP-2', 'pick', String(order?.id), '--mark', String(key)]);
      expect(other.code, other.stderr).toBe(0);
      await expect.poll(walk).toEqual(['A2:picked', 'A10:open', 'B-1-9:open', 'B-1-10:picked']);
      expect(await page.getByTestId('pick-row').nth(3).textContent()).toContain('SHOP-2');
      expect(await progress()).toBe('2 of 4 lots, 7 of 15 pieces');

      // Space on a stop picked whole takes its mark back.
      await page.getByTestId('pick-walk').focus();
      await page.keyboard.press('Home');
      await page.keyboard.press('Space');
      expect(await walk()).toEqual(['A2:open', 'A10:open', 'B-1-9:open', 'B-1-10:picked']);
      await expect.poll(progress).toBe('1 of 4 lots, 4 of 15 pieces');
    });

    it('prints the pick list from a hidden frame, its rows in walking order', async () => {
      // The frame's print() recorded instead of a dialog (every frame the page makes from now on).
      await page.addInitScript(() => {
        const w = globalThis as unknown as {
          top: Record<string, unknown>;
          print: () => void;
          document: { documentElement: { outerHTML: string } };
        };
        if (w.top !== (w as unknown)) w.print = () => void (w.top['printed'] = w.document.documentElement.outerHTML);
      });
      await page.reload();
      await openOrder('9001');
      await page.getByTestId('order-pick').click();
      await page.getByTestId('pick-row').first().waitFor();
      await page.getByRole('combobox', { name: 'Paper' }).selectOption('a4');
      await page.getByTestId('pick-print').click();
      const printed = await page
        .waitForFunction(() => (globalThis as unknown as Record<string, unknown>)['printed'] as string | undefined)
        .then((h) => h.jsonValue());
      if (printed === undefined) throw new Error('nothing printed');
      // Printed: the focus back where it was, not in the frame.
      await page.getByTestId('pick-print').and(page.locator(':focus')).waitFor();
      const at = ['A2', 'A10', 'B-1-9', 'B-1-10'].map((bin) => printed.indexOf(`>${bin}<`));
      expect(at.every((i) => i > 0)).toBe(true);
      expect([...at].sort((a, b) => a - b)).toEqual(at);
      fs.writeFileSync(path.join(SHOTS, 'pick-list.html'), printed);
      // The same list as CSV, downloaded.
      const [csv] = await Promise.all([page.waitForEvent('download'), page.getByTestId('pick-csv').click()]);
      expect(csv.suggestedFilename()).toMatch(/\.csv$/);
      const csvText = fs.readFileSync(await csv.path(), 'utf8');
      const bins = ['A2', 'A10', 'B-1-9', 'B-1-10'].map((bin) => csvText.indexOf(`${bin},`));
      expect(bins.every((i) => i >= 0)).toBe(true);
      expect([...bins].sort((a, b) => a - b)).toEqual(bins);
      const paper = await app.browser.context.newPage();
      await paper.setContent(printed);
      await paper.screenshot({ path: path.join(SHOTS, '04-pick-list-printed.png'), fullPage: true });
      await paper.close();
    });

    it('answers the picking keys at once on a 500-stop walk (under 50 ms)', async () => {
      await openOrder('9003');
      await page.getByTestId('order-pick').click();
      await page.getByTestId('pick-row').first().waitFor();
      expect(await progress()).toBe('0 of 500 lots, 0 of 500 pieces');
      await page.getByTestId('pick-walk').and(page.locator(':focus')).waitFor();
      // In the page: a key, then the time until the screen shows its answer (the selection moved, the row marked).
      const times = (await page.evaluate(`(async () => {
        const walk = document.querySelector('[data-testid="pick-walk"]');
        const selected = () => document.querySelector('.pick-row.selected');
        const shown = (done) => new Promise((resolve) => {
          const check = () => (done() ? resolve() : setTimeout(check, 0));
          check();
        });
        const out = { move: [], mark: [] };
        for (let i = 0; i < 40; i++) {
          const kind = i % 2 === 0 ? 'move' : 'mark';
          const row = selected();
          const key = kind === 'move' ? 'ArrowDown' : ' ';
          const t0 = performance.now();
          walk.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true }));
          await shown(() => (kind === 'move' ? selected() !== row : row.getAttribute('data-state') === 'picked'));
          out[kind].push(performance.now() - t0);
          await new Promise((r) => setTimeout(r, 30));
        }
        return out;
      })()`)) as { move: number[]; mark: number[] };
      const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Infinity;
      console.log(
        `picking keys on a 500-stop walk, median ms: move ${median(times.move).toFixed(1)}, mark ${median(times.mark).toFixed(1)}`,
      );
      expect(median(times.move)).toBeLessThan(50);
      expect(median(times.mark)).toBeLessThan(50);
      await expect.poll(progress).toBe('20 of 500 lots, 20 of 500 pieces');
      await shot('06-picking-500');
      // Typing a part quantity, in the light and the dark.
      await page.keyboard.press('1');
      await page.getByTestId('pick-typing').waitFor();
      await readsInBothSchemes('07-picking');
      await page.keyboard.press('Escape');
      await page.getByTestId('pick-back').click();
    });

    it('puts an incoming order away: each line to its lot or a new one, a location typed, and the two files', async () => {
      await openOrder('9002');
      await page.getByTestId('order-put-away').click();
      const rows = page.getByTestId('put-away-entry');
      await rows.first().waitFor();
      // Every new lot has a bin (suggested): the next key is Export.
      await page.getByTestId('put-away-export').and(page.locator(':focus')).waitFor();
      expect(await page.getByTestId('put-away-note').textContent()).toContain(STOCK_UNCHANGED_NOTE);
      // 3001 into its first lot in walking order; 3020 in colour 5 is new, beside its colour 11 in C3.
      expect(await rows.count()).toBe(2);
      const existing = page.locator('[data-testid="put-away-entry"][data-kind="existing"]');
      expect(await existing.getByTestId('put-away-to-lot').textContent()).toMatch(/^A\d+ .*→/);
      const typed = page.getByTestId('put-away-location');
      expect(await typed.inputValue()).toBe('C3');
      expect(await page.locator('[data-kind="new"]').textContent()).toContain('suggested: where its other colours are');
      // A location typed over the suggestion, by keyboard: Tab reaches the field.
      // The line the catalogue lacks is apart, with its reason.
      expect(await page.getByTestId('put-away-unplaced').textContent()).toContain('x999');
      await typed.focus();
      await typed.fill('C4');
      await page.keyboard.press('Enter');
      await page.locator('[data-kind="new"]', { hasText: 'as typed' }).waitFor();
      await shot('05-put-away');
      await readsInBothSchemes('05-put-away');
      const downloads: string[] = [];
      page.on('download', (d) => downloads.push(d.suggestedFilename()));
      await page.getByTestId('put-away-export').click();
      await expect.poll(() => downloads.length).toBe(2);
      expect(await page.getByTestId('notice').textContent()).toMatch(
        /^Exported .*\.xml; Exported .*\.xml\. 1 line left out \(listed below\)\./,
      );
      expect(await page.getByTestId('put-away-left-out').textContent()).toContain('x999');
      await page.getByTestId('put-away-back').click();
      // Back on the order, its lines focused.
      await page.getByTestId('line-table').and(page.locator(':focus')).waitFor();
    });

    it('takes the stock from BrickLink once the credentials are stored: one call, counted in the day’s budget, shown, then imported', async () => {
      // BrickLink's API as a stand-in answers the store's inventory: two lots, their bins in the remarks.
      const standIn = await startStandIn(
        {},
        {
          inventory: [
            {
              inventory_id: 9101,
              item: { no: '3001', type: 'PART' },
              color_id: 5,
              quantity: 40,
              new_or_used: 'N',
              remarks: 'A10',
            },
            {
              inventory_id: 9102,
              item: { no: '3003', type: 'PART' },
              color_id: 5,
              quantity: 3,
              new_or_used: 'U',
              remarks: 'B-1-9',
            },
          ],
        },
      );
      const set = await cliJson(['--db', db, 'settings', 'api-url', standIn.url]);
      expect(set.code, set.stderr).toBe(0);
      const tab = (name: string) => page.getByRole('navigation', { name: 'Screens' }).getByRole('button', { name });
      await tab('Catalogue & jobs').click();
      await page.getByTestId('stock-holds').waitFor();
      // Without credentials, not offered.
      expect(await page.getByTestId('stock-lookup').count()).toBe(0);
      await tab('Settings').click();
      for (const [label, value] of [
        ['Consumer key', TEST_CREDENTIALS.consumerKey],
        ['Consumer secret', TEST_CREDENTIALS.consumerSecret],
        ['Token', TEST_CREDENTIALS.token],
        ['Token secret', TEST_CREDENTIALS.tokenSecret],
      ] as const)
        await page.getByLabel(label, { exact: true }).fill(value);
      await page.getByRole('button', { name: 'Store the credentials' }).click();
      await page.getByTestId('notice').filter({ hasText: 'The BrickLink credentials are stored.' }).waitFor();
      await tab('Catalogue & jobs').click();
      const take = page.getByTestId('stock-lookup');
      await take.waitFor();
      expect(await page.getByTestId('stock-lookup-budget').textContent()).toContain('5,000 left of 5,000');
      const before = await page.getByTestId('stock-holds').textContent();
      await take.click();
      // What BrickLink gave is shown first, as a stock file is: the next key imports it.
      await page.getByTestId('notice').filter({ hasText: 'BrickLink’s store inventory (' }).waitFor();
      expect(standIn.requests).toEqual(['inventories']);
      await expect.poll(() => page.getByTestId('stock-lookup-budget').textContent()).toContain('4,999 left of 5,000');
      const keeps = page.getByTestId('stock-preview-keeps');
      await keeps.waitFor();
      expect(await keeps.textContent()).toMatch(
        /^Locations from each lot’s remarks: 2 locations; 2 with BrickLink’s lot id\. It replaces the stock from /,
      );
      const headings = await page.getByTestId('stock-preview').getByRole('heading').allTextContents();
      expect(headings[0]).toMatch(/^The stock from BrickLink store inventory \d{4}-\d\d-\d\d\.xml$/);
      expect(await page.getByTestId('stock-holds').textContent()).toBe(before);
      await page.getByTestId('stock-confirm').and(page.locator(':focus')).press('Enter');
      await page.getByTestId('notice').filter({ hasText: 'The stock is now BrickLink store inventory' }).waitFor();
      await expect
        .poll(() => page.getByTestId('stock-holds').textContent())
        .toBe('2 lots, 43 pieces in 2 locations; 0 unplaced.');
      expect(standIn.requests).toEqual(['inventories']);
    });
  },
);
