import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildScreens, hasChromium, NEEDS_CHROMIUM, openApp } from '../helpers/browser.ts';
import { files } from '../helpers/catalogue-files.ts';
import { cliJson, REPO_ROOT } from '../helpers/cli.ts';
import { orderXml } from '../helpers/documents.ts';
import { needs } from '../helpers/needs.ts';

const SHOTS = path.join(REPO_ROOT, 'test-results', 'bulk');

/** Issue 64 §3: a file of many orders previews with its totals first, and opens where the work is. */
describe.runIf(needs(hasChromium(), NEEDS_CHROMIUM, 'the bulk import walk'))(
  'a file of many orders (issue 64 §3)',
  () => {
    let dir: string;
    let app: Awaited<ReturnType<typeof openApp>>;
    let page: Page;
    let orders: string;

    beforeAll(async () => {
      buildScreens();
      fs.rmSync(SHOTS, { recursive: true, force: true });
      fs.mkdirSync(SHOTS, { recursive: true });
      dir = fs.mkdtempSync(path.join(REPO_ROOT, 'test-results', 'bulk-'));
      const db = path.join(dir, 'brick-work.sqlite');
      const write = (name: string, text: string) => {
        fs.writeFileSync(path.join(dir, name), text);
        return path.join(dir, name);
      };
      const parts = write('parts.csv', files.rebrickableParts([{ no: '3001', name: 'Brick 2 x 4' }]));
      const r = await cliJson(['--db', db, 'catalogue', 'import', parts]);
      if (r.code !== 0) throw new Error(JSON.stringify(r.json));
      // Seven orders; only 7004 and 7006 give a number the catalogue lacks.
      orders = write(
        'orders.xml',
        orderXml(
          ['7001', '7002', '7003', '7004', '7005', '7006', '7007'].map((id) => ({
            id,
            seller: `seller ${id}`,
            lines: [{ no: '3001', colour: 5 }, ...(id === '7004' || id === '7006' ? [{ no: 'x999', colour: 5 }] : [])],
          })),
        ),
      );
      app = await openApp(db);
      page = app.page;
    }, 180_000);

    afterAll(async () => {
      await app?.close();
      if (dir) fs.rmSync(dir, { recursive: true, force: true });
    });

    it('starts with the totals and the orders that need work, opens the first of them, and a second time is one refusal', async () => {
      const importTab = page.getByRole('navigation', { name: 'Screens' }).getByRole('button', { name: 'Import' });
      await importTab.click();
      await page.getByTestId('import-file').setInputFiles(orders);
      const summary = page.getByTestId('bulk-summary');
      await summary.waitFor();
      expect(await summary.textContent()).toContain('7 documents: 9 lines, 7 placed, 2 unplaced.');
      expect(await page.getByTestId('bulk-need-work').textContent()).toBe(
        'Need work: 7004 (1 unplaced), 7006 (1 unplaced).',
      );
      await page.screenshot({ path: path.join(SHOTS, '01-bulk-preview.png') });
      await page.getByTestId('confirm-import').click();
      // Not the first order (nothing to do there): the first that needs work.
      await page.getByRole('heading', { name: /Order 7004/ }).waitFor();

      // The same file again: one sentence that lists them, not one each.
      await importTab.click();
      await page.getByTestId('import-file').setInputFiles(orders);
      const refusal = page.getByTestId('preview-refusal');
      await refusal.waitFor();
      expect(await refusal.textContent()).toMatch(
        /^All 7 documents of this file were already imported: bricklink-order:7001, .*, bricklink-order:7005 and 2 more\. /,
      );
      expect(await page.getByRole('alert').count()).toBe(1);
      // The orders that need work are still the two with unplaced lines: the refusal is the file's, said once.
      expect(await page.getByTestId('bulk-need-work').textContent()).toBe(
        'Need work: 7004 (1 unplaced), 7006 (1 unplaced).',
      );
      await page.screenshot({ path: path.join(SHOTS, '02-bulk-duplicate.png') });
    });
  },
);
