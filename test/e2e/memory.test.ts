/**
 * Issue 60 §2 in Chromium through the browser host: a line placed by a remembered fix says so — from what
 * it was taught, by which desk, when — and F in the line table forgets that memory (one undo step); a line
 * the memory refused for its colour names it too. Screens are saved in test-results/memory/.
 */
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildScreens, hasChromium, launchBrowser, NEEDS_CHROMIUM, startHost } from '../helpers/browser.ts';
import { files } from '../helpers/catalogue-files.ts';
import { cliJson, REPO_ROOT } from '../helpers/cli.ts';
import { orderXml } from '../helpers/documents.ts';
import { needs } from '../helpers/needs.ts';

const SHOTS = path.join(REPO_ROOT, 'test-results', 'memory');

describe.runIf(needs(hasChromium(), NEEDS_CHROMIUM, 'the memory walk'))(
  'a remembered fix on the desk (issue 60 §2)',
  () => {
    let dir: string;
    let host: ChildProcess;
    let browser: Awaited<ReturnType<typeof launchBrowser>>;
    let page: Page;

    beforeAll(async () => {
      buildScreens();
      fs.rmSync(SHOTS, { recursive: true, force: true });
      fs.mkdirSync(SHOTS, { recursive: true });
      dir = fs.mkdtempSync(path.join(REPO_ROOT, 'test-results', 'memory-'));
      const db = path.join(dir, 'brick-work.sqlite');
      const write = (name: string, text: string) => {
        fs.writeFileSync(path.join(dir, name), text);
        return path.join(dir, name);
      };
      // 3001 is made in Red and Black, not in Blue.
      const catalogue = [
        write('parts.csv', files.rebrickableParts([{ no: '3001', name: 'Brick 2 x 4' }])),
        write(
          'colors.txt',
          files.bricklinkColoursTab([
            { id: 5, name: 'Red' },
            { id: 11, name: 'Black' },
            { id: 7, name: 'Blue' },
          ]),
        ),
        write(
          'codes.txt',
          files.bricklinkCodes([
            { no: '3001', colour: 'Red', element: '300121' },
            { no: '3001', colour: 'Black', element: '300126' },
          ]),
        ),
      ];
      const run = async (args: string[]) => {
        const r = await cliJson(['--db', db, '--desk', 'front', ...args]);
        if (r.code !== 0) throw new Error(`${args.join(' ')}: ${JSON.stringify(r.json)}`);
        return r.json;
      };
      await run(['catalogue', 'import', ...catalogue]);
      const first = write('first.xml', orderXml([{ id: '7001', seller: 'a', lines: [{ no: 'x3001', colour: 5 }] }]));
      const imported = await run(['import', first]);
      const lines = await run(['lines', String(imported.imports[0].order.id)]);
      await run(['place', String(lines.lines[0].id), 'P', '3001']);
      write(
        'later.xml',
        orderXml([
          {
            id: '7002',
            seller: 'b',
            lines: [
              { no: 'x3001', colour: 11 },
              { no: 'x3001', colour: 7 },
            ],
          },
        ]),
      );
      const started = await startHost(db);
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

    it('says what placed a line, and F forgets it', async () => {
      await page.getByRole('navigation', { name: 'Screens' }).getByRole('button', { name: 'Import' }).click();
      await page.getByTestId('import-file').setInputFiles(path.join(dir, 'later.xml'));
      await page.getByTestId('preview').waitFor();
      await page.getByTestId('confirm-import').click();
      await page.getByRole('heading', { name: /Order 7002/ }).waitFor();

      // The order opens on its first unplaced line: Blue, which the memory refused, naming it.
      const blue = page.locator('.line-row[aria-rowindex="2"]');
      await blue.click();
      await expect.poll(() => page.getByTestId('reason').getAttribute('data-reason')).toBe('remembered-not-in-colour');
      expect(await page.getByTestId('line-details').textContent()).toMatch(
        /Remembered.*remembered — x3001 in Red → 3001, desk "front"/,
      );
      // Black: placed by the memory, saying so in the table and the panel.
      const black = page.locator('.line-row[aria-rowindex="1"]');
      await black.click();
      expect(await black.locator('.tag.via').textContent()).toMatch(
        /^remembered — x3001 in Red → 3001, desk "front", /,
      );
      expect(await page.getByTestId('line-details').textContent()).toMatch(/Placed through.*remembered — x3001 in Red/);
      await page.screenshot({ path: path.join(SHOTS, '01-placed-by-a-memory.png') });

      // F, where the worker is (the line table), forgets it: one undo step, the line stays placed.
      await page.getByTestId('line-table').focus();
      await page.keyboard.press('f');
      await page
        .getByTestId('notice')
        .filter({ hasText: /^Forgetting the placement remembered for "?x3001"?\. The lines it placed stay placed/ })
        .waitFor();
      await expect.poll(() => page.getByTestId('forget-memory').count()).toBe(0);
      // The line it refused no longer names it: placed again in the same step, now for want of its number.
      await expect.poll(() => page.locator('.line-row[aria-rowindex="2"]').textContent()).toMatch(/Number unknown/);
      expect(await black.locator('.c-placed, .tag.via').first().textContent()).toBeTruthy();
      expect(await page.getByTestId('undo').getAttribute('aria-label')).toMatch(/^Undo Forgetting the placement/);
      await page.screenshot({ path: path.join(SHOTS, '02-forgotten.png') });
    });
  },
);
