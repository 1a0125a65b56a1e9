/**
 * A model on the Import screen (issue 49), in Debian's Chromium through the browser host: a Studio `.io`
 * chosen, previewed like a list — its parts and submodels counted, a line per part and colour, LDraw's
 * colour numbering, what it could not read — and imported as a document. Screens in test-results/models/.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildScreens, hasChromium, NEEDS_CHROMIUM, openApp } from '../helpers/browser.ts';
import { files } from '../helpers/catalogue-files.ts';
import { cliJson, REPO_ROOT } from '../helpers/cli.ts';
import { needs } from '../helpers/needs.ts';
import { zipFile } from '../helpers/zip.ts';

const SHOTS = path.join(REPO_ROOT, 'test-results', 'models');
const use = (colour: number, name: string) => `1 ${colour} 0 0 0 1 0 0 0 1 0 0 0 1 ${name}`;

describe.runIf(needs(hasChromium(), NEEDS_CHROMIUM, 'models on the Import screen'))(
  'a model imported (issue 49)',
  () => {
    let dir: string;
    let app: Awaited<ReturnType<typeof openApp>> | undefined;
    let page: Page;

    beforeAll(async () => {
      buildScreens();
      fs.rmSync(SHOTS, { recursive: true, force: true });
      fs.mkdirSync(SHOTS, { recursive: true });
      dir = fs.mkdtempSync(path.join(REPO_ROOT, 'test-results', 'models-'));
      const store = path.join(dir, 'brick-work.sqlite');
      fs.writeFileSync(
        path.join(dir, 'items.xml'),
        files.bricklinkItemsXml([
          { type: 'P', no: '3001', name: 'Brick 2 x 4' },
          { type: 'P', no: '3023', name: 'Plate 1 x 2' },
        ]),
      );
      fs.writeFileSync(
        path.join(dir, 'colors.json'),
        files.rebrickableColourTable([
          { id: 4, name: 'Red', bricklink: { id: 5, name: 'Red' }, ldraw: { id: 4, name: 'Red' } },
        ]),
      );
      fs.writeFileSync(path.join(dir, 'colors.xml'), files.bricklinkColoursXml([{ id: 5, name: 'Red' }]));
      for (const f of ['items.xml', 'colors.xml', 'colors.json'])
        expect((await cliJson(['--db', store, 'catalogue', 'import', path.join(dir, f)])).code).toBe(0);
      const model = [
        '0 FILE house.ldr',
        use(4, 'wall.ldr'),
        use(4, 'wall.ldr'),
        use(4, '3023.dat'),
        use(4, 'chimney.ldr'),
        '1 4 0 0 0 broken',
        '0 FILE wall.ldr',
        use(16, '3001.dat'),
        use(16, '3001.dat'),
      ].join('\r\n');
      fs.writeFileSync(
        path.join(dir, 'House.io'),
        zipFile([
          { name: '.info', data: '{}' },
          { name: 'model.ldr', data: model, password: 'soho0909' },
        ]),
      );
      app = await openApp(store);
      page = app.page;
    }, 180_000);

    afterAll(async () => {
      await app?.close();
      if (dir) fs.rmSync(dir, { recursive: true, force: true });
    });

    it('a Studio file is previewed like a list and imported as a document', async () => {
      await page.getByRole('navigation', { name: 'Screens' }).getByRole('button', { name: 'Import' }).click();
      await page.getByTestId('import-file').setInputFiles(path.join(dir, 'House.io'));
      await page.getByTestId('preview').waitFor();
      expect(await page.getByTestId('columns-read').textContent()).toBe(
        '6 parts, 1 submodel expanded; 3 lines, one for each part in each colour',
      );
      expect(await page.getByTestId('columns-not-read').textContent()).toBe(
        '1 type-1 line that names no part (line 6)',
      );
      expect(await page.getByTestId('reading').textContent()).toContain('read as LDraw’s');
      await page.screenshot({ path: path.join(SHOTS, '0-studio-model-preview.png') });
      await page.getByTestId('confirm-import').click();
      await page
        .getByTestId('notice')
        .filter({ hasText: /^Imported House\.io/ })
        .waitFor({ timeout: 30_000 });
      await page.getByRole('navigation', { name: 'Screens' }).getByRole('button', { name: 'Orders' }).click();
      await page.locator('tr.clickable', { hasText: 'House.io' }).click();
      await page.locator('.line-row').first().waitFor();
      const rows = await page.locator('.line-row').allInnerTexts();
      expect(rows.map((r) => r.replace(/\s+/g, ' ').trim())).toEqual([
        // LDraw's red, as the catalogue names it; the part's LDraw number in the remarks.
        expect.stringMatching(/^1 3001 Red 4 LDraw part 3001 P 3001 Red Brick 2 x 4/),
        expect.stringMatching(/^2 3023 Red 1 LDraw part 3023 P 3023 Red Plate 1 x 2/),
        expect.stringMatching(/^3 chimney\.ldr Red 1 a submodel the file names but does not hold Number unknown$/),
      ]);
      await page.screenshot({ path: path.join(SHOTS, '1-model-as-an-order.png') });
    });
  },
);
