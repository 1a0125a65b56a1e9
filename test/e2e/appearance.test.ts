/**
 * Dark mode (issue 63 §4) in Debian's Chromium through the browser host: the screens follow the system's
 * appearance (prefers-color-scheme, which Electron's Chromium takes from nativeTheme), and in the light
 * and the dark alike every text on them reads against its ground (WCAG AA: 4.5 to 1, 3 for large text) and
 * the focus ring stands out (3 to 1). The main screens — orders, an order's lines with a line being fixed,
 * an undone order, compare, import, catalogue, export, settings, the history, notices and banners, the
 * pictures' placeholders — are walked in each scheme and saved in test-results/appearance/.
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
import {
  CONTRAST_CHECK,
  failureLines,
  FOCUS_RING,
  PAGE_GROUND,
  type ContrastReport,
  type FocusRing,
} from '../helpers/contrast.ts';
import { bsx } from '../helpers/documents.ts';
import { needs } from '../helpers/needs.ts';
import { png } from '../helpers/png.ts';

const SHOTS = path.join(REPO_ROOT, 'test-results', 'appearance');
const SCHEMES = ['light', 'dark'] as const;
type Scheme = (typeof SCHEMES)[number];

/**
 * What a screen shows only in a state the walk does not reach (a store that can't be written, a refused
 * document, a failure, a job under way): the app's own classes, put in the page for the check, then taken out.
 */
const SAMPLES = `
<div class="banner read-only" role="status">Read only: this store can't be written — the file and its folder are read-only. You can look and export; changes are refused.</div>
<div class="notice error" role="alert">The catalogue file could not be read: it is not a BrickLink or Rebrickable file.</div>
<div class="notice info" role="status">Loaded 7 items. <button class="link">Order Falcon.bsx: 5 placed, 1 unplaced</button></div>
<section class="screen">
  <p class="refusal">This file is not an order: brick-work reads BrickStore, BrickLink XML and CSV part lists.</p>
  <ul class="warnings"><li class="warning"><label class="check"><input type="checkbox" /> This list has no quantity column: every line will count 1. I have checked this.</label></li></ul>
  <div class="confirm"><p>Take back Falcon.bsx? Its 6 lines go with it.</p><div class="row"><button class="primary">Take back</button><button>Cancel</button></div></div>
  <p class="reason-box">The BrickLink number is not in the catalogue</p>
  <div class="confirm-box"><p>This moves 2 lines another placement had placed.</p></div>
  <div class="revival"><h4>Revive</h4><p>This document was imported and undone: its 6 lines pair by position.</p></div>
  <p class="busy">Loading the catalogue…</p>
  <div class="progress"><div class="progress-fill" style="width: 60%"></div><div class="progress-text">Loading the catalogue: 60% (4,200 of 7,000 items)</div></div>
  <div class="first-start card"><ol class="steps"><li class="done"><b>Load a catalogue</b></li><li><b>Import an order</b> <code>brick-work import FILE</code></li></ol></div>
</section>`;

const COLOURS = [
  { id: 1, name: 'White' },
  { id: 5, name: 'Red' },
  { id: 11, name: 'Black' },
  { id: 86, name: 'Light Bluish Gray' },
];

describe.runIf(needs(hasChromium(), NEEDS_CHROMIUM, 'the screens in the light and the dark'))(
  'the screens follow the system’s appearance, readable in both (issue 63 §4)',
  () => {
    let dir: string;
    let app: Awaited<ReturnType<typeof openApp>> | undefined;
    let page: Page;
    // Pictures: the stand-in has one (3001 in red); every other line shows its placeholder.
    const pictures = http.createServer((req, res) => {
      if (req.url === '/ItemImage/PN/5/3001.png')
        res.writeHead(200, { 'Content-Type': 'image/png' }).end(png([201, 26, 9]));
      else res.writeHead(404).end();
    });
    const tab = (name: string) => page.getByRole('navigation', { name: 'Screens' }).getByRole('button', { name });
    const cli = async (...args: string[]) => {
      const r = await cliJson(['--db', path.join(dir, 'brick-work.sqlite'), ...args]);
      expect(r.code, r.stderr).toBe(0);
      return r.json;
    };

    beforeAll(async () => {
      buildScreens();
      fs.rmSync(SHOTS, { recursive: true, force: true });
      fs.mkdirSync(SHOTS, { recursive: true });
      dir = fs.mkdtempSync(path.join(REPO_ROOT, 'test-results', 'appearance-'));
      const base = await new Promise<string>((resolve) =>
        pictures.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(pictures.address() as AddressInfo).port}`)),
      );
      const put = (name: string, content: string) => {
        fs.writeFileSync(path.join(dir, name), content);
        return path.join(dir, name);
      };
      await cli(
        'catalogue',
        'import',
        put(
          'items.xml',
          files.bricklinkItemsXml([
            { type: 'P', no: '3001', name: 'Brick 2 x 4' },
            { type: 'P', no: '3001b', name: 'Brick 2 x 4 with Cross Supports' },
            { type: 'P', no: '3003', name: 'Brick 2 x 2' },
            { type: 'P', no: '3020', name: 'Plate 2 x 4' },
            { type: 'P', no: '3024', name: 'Plate 1 x 1' },
          ]),
        ),
        put('colors.xml', files.bricklinkColoursXml(COLOURS)),
        put('codes.txt', files.bricklinkCodes([{ no: '3001', colour: 'Red', element: '300121' }])),
      );
      await cli('settings', 'picture-url', base);
      await cli(
        'import',
        put(
          'Falcon.bsx',
          bsx(
            [
              { no: '3001', name: 'Brick 2 x 4', colour: 5, colourName: 'Red', qty: 10, price: '0.20' },
              { no: '3003', name: 'Brick 2 x 2', colour: 1, colourName: 'White', qty: 4, price: '0.10' },
              { no: '3020', name: 'Plate 2 x 4', colour: 11, colourName: 'Black', qty: 2, price: '0.15' },
              { no: '3001old', name: 'Brick 2 x 4 old style', colour: 5, colourName: 'Red', qty: 2, price: '0.12' },
              {
                no: '3003old',
                name: 'Brick 2 x 2 old style',
                colour: 1,
                colourName: 'White',
                qty: 1,
                price: '0.30',
                remarks: 'bin 4',
              },
              { no: '3024', name: 'Plate 1 x 1', colour: 86, colourName: 'Light Bluish Gray', qty: 30, price: '0.02' },
            ],
            'EUR',
          ),
        ),
      );
      await cli(
        'import',
        put(
          'Hawk.bsx',
          bsx([
            { no: '3001', name: 'Brick 2 x 4', colour: 5, colourName: 'Red', qty: 8, price: '0.20' },
            { no: '3003', name: 'Brick 2 x 2', colour: 1, colourName: 'White', qty: 4, price: '0.10' },
            { no: '3024', name: 'Plate 1 x 1', colour: 86, colourName: 'Light Bluish Gray', qty: 30, price: '0.02' },
            { no: '3003', name: 'Brick 2 x 2', colour: 11, colourName: 'Black', qty: 3, price: '0.12' },
          ]),
        ),
      );
      // An order taken back (its banner), and a line placed by hand (a remembered placement, a step to undo).
      await cli('import', put('Kestrel.bsx', bsx([{ no: '3020', name: 'Plate 2 x 4', colour: 11, qty: 1 }])));
      await cli('undo');
      const orders: { id: number; reference: string }[] = (await cli('orders')).orders;
      const falcon = orders.find((o) => o.reference === 'Falcon.bsx')?.id ?? 0;
      const unplaced: { id: number; given: { no: string } }[] = (await cli('lines', String(falcon), '--unplaced'))
        .lines;
      const old = unplaced.find((l) => l.given.no === '3001old');
      await cli('place', String(old?.id ?? 0), 'P', '3001');
      put('Wanted parts.csv', 'Part No,Name,Color,Weight\n3001,Brick 2 x 4,1,2.3\n3023,Plate 1 x 2,5,0.4\n');
      app = await openApp(path.join(dir, 'brick-work.sqlite'));
      page = app.page;
    }, 180_000);

    afterAll(async () => {
      await app?.close();
      pictures.closeAllConnections();
      pictures.close();
      if (dir) fs.rmSync(dir, { recursive: true, force: true });
    });

    /**
     * Measures the page as it is now and saves it; what falls short is kept in `failed` for the end of
     * the walk (one scheme's), and printed.
     */
    const looker = (scheme: Scheme, failed: string[]) => {
      let shotNo = 0;
      let measured = 0;
      const look = async (screen: string) => {
        // Pictures come and go as they are asked for: measured once the page has settled.
        await page.waitForTimeout(150);
        const report = (await page.evaluate(CONTRAST_CHECK)) as ContrastReport;
        expect(report.checked, `${scheme} · ${screen}: texts measured`).toBeGreaterThan(5);
        measured += report.checked;
        failed.push(...failureLines(scheme, screen, report.failures));
        for (const u of report.unmeasured)
          console.log(`${scheme} · ${screen}: not measured (on a picture or gradient): ${u}`);
        shotNo += 1;
        await page.screenshot({ path: path.join(SHOTS, `${scheme}-${String(shotNo).padStart(2, '0')}-${screen}.png`) });
      };
      /** The focus ring where the keyboard left it: there, on `what`, and standing out from its ground. */
      const ring = async (what: string) => {
        const shown = (await page.evaluate(FOCUS_RING)) as FocusRing | null;
        expect(shown?.element, `${scheme}: a focus ring on ${what}`).toContain(what);
        if (shown && shown.ratio < 3)
          failed.push(
            `${scheme} · focus ring: ${shown.element} — ${shown.colour} on ${shown.background}: ${shown.ratio} (needs 3)`,
          );
      };
      return { look, ring, measured: () => measured };
    };

    it('has a checker that catches text that does not read (and passes text that does)', async () => {
      await page.getByRole('heading', { name: 'Orders' }).waitFor();
      await page.evaluate(`(() => {
        const p = document.createElement('p');
        p.id = 'contrast-probe';
        p.dataset.testid = 'contrast-probe';
        p.textContent = 'Grey on grey';
        p.style.cssText = 'color: #777; background: #888; position: fixed; top: 0; left: 0';
        const big = document.createElement('p');
        big.id = 'contrast-probe-big';
        big.dataset.testid = 'contrast-probe-big';
        big.textContent = 'Large and bold';
        // 3.5 to 1: enough for text this large and bold only.
        big.style.cssText = 'color: #ffffff; background: #f0506a; font-size: 24px; font-weight: 700; position: fixed; top: 40px; left: 0';
        document.body.append(p, big);
      })()`);
      const report = (await page.evaluate(CONTRAST_CHECK)) as ContrastReport;
      await page.evaluate(
        `document.getElementById('contrast-probe').remove(); document.getElementById('contrast-probe-big').remove()`,
      );
      // (The screen's own texts are the walks' below.)
      expect(report.failures.filter((f) => f.element.includes('contrast-probe'))).toEqual([
        {
          element: 'p[data-testid=contrast-probe] "Grey on grey"',
          colour: '#777777',
          background: '#888888',
          ratio: 1.26,
          needs: 4.5,
        },
      ]);
    });

    for (const scheme of SCHEMES) {
      it(`in the ${scheme}: every main screen reads, and the focus ring shows`, async () => {
        await page.emulateMedia({ colorScheme: scheme });
        const failed: string[] = [];
        const { look, ring, measured } = looker(scheme, failed);
        // The page itself follows: a dark ground in the dark, a light one in the light.
        const ground = (await page.evaluate(PAGE_GROUND)) as { colour: string; luminance: number };
        if (scheme === 'dark') expect(ground.luminance, `the page's ground ${ground.colour}`).toBeLessThan(0.05);
        else expect(ground.luminance, `the page's ground ${ground.colour}`).toBeGreaterThan(0.8);
        expect(await page.evaluate(`getComputedStyle(document.documentElement).colorScheme`)).toBe('light dark');
        // Every colour of the set has a value here (one defined by itself, or not at all, would leave its
        // rules without one). The build's own are not ours: its CSS tool writes color-scheme with two.
        const colours = (await page.evaluate(`(() => {
          const names = new Set();
          for (const sheet of document.styleSheets)
            for (const rule of sheet.cssRules)
              for (const r of rule.cssRules ? [...rule.cssRules] : [rule])
                if (r.selectorText === ':root')
                  for (const p of r.style) if (p.startsWith('--') && !p.startsWith('--lightningcss-')) names.add(p);
          const cs = getComputedStyle(document.documentElement);
          return [...names].map((n) => [n, cs.getPropertyValue(n).trim()]);
        })()`)) as [string, string][];
        expect(colours.length).toBeGreaterThan(20);
        expect(colours.filter(([, value]) => value === '').map(([name]) => name)).toEqual([]);

        await tab('Orders').click();
        await page.locator('tr.clickable', { hasText: 'Falcon.bsx' }).waitFor();
        await page.locator('tr.clickable', { hasText: 'Falcon.bsx' }).hover();
        await look('orders');

        // An order: it opens on its unplaced line, the table focused, the line's reason and suggestions beside.
        await page.locator('tr.clickable', { hasText: 'Falcon.bsx' }).click();
        await page.getByRole('heading', { name: /Order Falcon\.bsx/ }).waitFor();
        await page.getByTestId('suggestions').locator('li').first().waitFor();
        await expect
          .poll(() => page.locator('.line-row .c-pic [data-why]').count(), { timeout: 15_000 })
          .toBeGreaterThan(0);
        await page.getByTestId('line-table').focus();
        await look('order-lines');
        // Fixing: into the suggestions (the first is highlighted); nothing is placed.
        await page.keyboard.press('Enter');
        await page.locator('.suggestions li.highlighted').waitFor();
        await look('order-fixing');
        // The line placed by hand: its details with the pictures (one there, one a placeholder).
        await page.locator('.line-row', { hasText: '3001old' }).click();
        await page.getByTestId('line-pictures').waitFor();
        await look('order-placed-by-hand');
        await page.getByTestId('documents').locator('summary').click();
        await look('order-documents');

        // An order taken back: its banner.
        await tab('Orders').click();
        await page.locator('tr.clickable', { hasText: 'Kestrel.bsx' }).click();
        await page.getByTestId('order-undone').waitFor();
        await look('order-undone');

        // Compare: Falcon against Hawk, a row selected in the focused groups.
        await tab('Compare').click();
        await page.getByRole('region', { name: 'Compare' }).waitFor();
        const side = (s: 'left' | 'right') => page.getByTestId(`compare-${s}`).locator('select');
        for (const [s, reference] of [
          ['left', 'Falcon.bsx —'],
          ['right', 'Hawk.bsx —'],
        ] as const) {
          const value = await side(s).locator('option', { hasText: reference }).first().getAttribute('value');
          await side(s).selectOption(value ?? '');
        }
        await page.getByTestId('compare-run').click();
        await page.getByTestId('compare-totals').waitFor();
        await page.getByTestId('differences-only').uncheck();
        await page.getByTestId('compare-groups').focus();
        await page.keyboard.press('ArrowDown');
        await page.locator('.compare-group tr[aria-selected="true"]').waitFor();
        // Back into the groups by the keyboard: their ring (drawn inside them) shows.
        await page.keyboard.press('Shift+Tab');
        await page.keyboard.press('Tab');
        await ring('compare-groups');
        await look('compare');

        // Import: a list whose reader had to assume, with its warnings to tick.
        await tab('Import').click();
        await page.getByTestId('import-file').setInputFiles(path.join(dir, 'Wanted parts.csv'));
        await page.getByRole('list', { name: 'What the reader assumed' }).waitFor();
        await look('import-preview');

        await tab('Catalogue & jobs').click();
        await page.getByTestId('catalogue-size').waitFor();
        await look('catalogue');

        await tab('Export').click();
        await page.getByRole('heading', { name: 'Export' }).waitFor();
        await look('export');

        await tab('Settings').click();
        await page.getByRole('table', { name: 'Remembered placements' }).waitFor();
        await look('settings');

        // The history, and a notice: the hand placement undone and done again.
        await page.getByTestId('history-open').click();
        await page.getByTestId('history-panel').waitFor();
        await look('history');
        await page.getByTestId('history-close').click();
        await page.getByTestId('undo').click();
        await page
          .getByTestId('notice')
          .filter({ hasText: /^Undone: Hand placement/ })
          .waitFor();
        await page.getByTestId('redo').click();
        await page
          .getByTestId('notice')
          .filter({ hasText: /^Redone: Hand placement/ })
          .waitFor();
        await look('notice');

        // What the walk does not reach, in the app's own classes: banners, refusals, confirmations, a job's bar.
        await page.evaluate(`(() => {
          const samples = document.createElement('div');
          samples.id = 'appearance-samples';
          samples.innerHTML = ${JSON.stringify(SAMPLES)};
          const main = document.querySelector('main');
          main.parentElement.insertBefore(samples, main);
        })()`);
        await look('banners-and-boxes');
        await page.evaluate(`document.getElementById('appearance-samples').remove()`);

        // The focus ring, reached by the keyboard, against the header's ground.
        await page.getByTestId('history-open').focus();
        await page.keyboard.press('Shift+Tab');
        await page.keyboard.press('Tab');
        await ring('history-open');

        console.log(`${scheme}: ${measured()} texts measured, ${failed.length} short of WCAG AA`);
        for (const line of failed) console.log(line);
        expect(failed, failed.join('\n')).toEqual([]);
      }, 180_000);
    }
  },
);
