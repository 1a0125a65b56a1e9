/**
 * A worker's morning at the desk (issue 10), in Debian's Chromium through the browser host: load the
 * catalogue from the first-start guide, import Market Street and the 1,532-lot PAB inventory, fix ten
 * lines (five by keyboard only, one by a typed number, one where the search box held an old query),
 * take back the older import while the newer one stays, revive it, undo and redo, export. On the real
 * files of ../shared/data where they are, else on documents and a catalogue of the same shape made here.
 * Every screen and state is saved as a screenshot in test-results/morning/.
 */
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, NEEDS_CHROMIUM, hasChromium, startHost, buildScreens } from '../helpers/browser.ts';
import { REPO_ROOT } from '../helpers/cli.ts';
import { bsx, type DocLine } from '../helpers/documents.ts';
import { files } from '../helpers/catalogue-files.ts';
import { FIRST_SUGGESTIONS, p95, SCROLL_FRAMES } from '../helpers/in-page.ts';
import { sharedFile } from '../helpers/shared-data.ts';
import { needs } from '../helpers/needs.ts';
import { pressShortcut } from '../helpers/shortcut-keys.ts';

const SHOTS = path.join(REPO_ROOT, 'test-results', 'morning');

/** The lots that call for a fix, as Market Street has them (its 4073s, its Cherries, parts renamed since). */
const FIXTURE_MARKET: DocLine[] = [
  { no: '3001', name: 'Brick 2 x 4', colour: 5, colourName: 'Red', qty: 4, price: '0.12' },
  {
    no: '44302',
    name: 'Hinge Plate 1 x 2 Locking with 2 Fingers On End',
    colour: 11,
    colourName: 'Black',
    qty: 2,
    price: '0.05',
  },
  { no: '3861', name: 'Door 1 x 4 x 5 with 4 Panes', colour: 5, colourName: 'Red', qty: 1, price: '0.40' },
  { no: '4073', name: 'Plate, Round 1 x 1 Straight Side', colour: 1, colourName: 'White', qty: 6 },
  { no: '3957', name: 'Antenna 1 x 4', colour: 11, colourName: 'Black', qty: 2 },
  { no: '4073', name: 'Plate, Round 1 x 1 Straight Side', colour: 2, colourName: 'Tan', qty: 18 },
  {
    no: '3794',
    name: 'Plate, Modified 1 x 2 with 1 Stud (Jumper)',
    colour: 86,
    colourName: 'Light Bluish Gray',
    qty: 16,
  },
  { no: '2454', name: 'Brick 1 x 2 x 5', colour: 2, colourName: 'Tan', qty: 3 },
  { no: '4073', name: 'Plate, Round 1 x 1 Straight Side', colour: 11, colourName: 'Black', qty: 1 },
  { no: 'x18', name: 'Cherries', colour: 5, colourName: 'Red', qty: 4 },
  { no: 'x18', name: 'Cherries', colour: 34, colourName: 'Lime', qty: 4 },
  { no: 'x8', name: 'Plant Flower Stem 1 x 1 x 2/3 with 3 Large Leaves', colour: 6, colourName: 'Green', qty: 2 },
  { no: '4073', name: 'Plate, Round 1 x 1 Straight Side', colour: 86, colourName: 'Light Bluish Gray', qty: 28 },
  {
    no: '30179c05',
    name: 'Door Frame 1 x 4 x 6 with Black Door with Trans-Black Glass',
    colour: 1,
    colourName: 'White',
    qty: 1,
  },
  { no: '4032', name: 'Plate, Round 2 x 2 with Axle Hole', colour: 1, colourName: 'White', qty: 2 },
  { no: '3003', name: 'Brick 2 x 2', colour: 1, colourName: 'White', qty: 8, price: '0.08' },
];
const FIXTURE_PARTS = [
  { no: '3001', name: 'Brick 2 x 4' },
  { no: '3003', name: 'Brick 2 x 2' },
  { no: '44302a', name: 'Hinge Plate 1 x 2 Locking with 2 Fingers On End, with Groove, 9 Teeth' },
  { no: '44302b', name: 'Hinge Plate 1 x 2 Locking with 2 Fingers On End, without Groove, 9 Teeth' },
  { no: '3861a', name: 'Door 1 x 4 x 5 with 4 Panes, Rounded Base' },
  { no: '3957a', name: 'Antenna 1 x 4 with Rounded Top' },
  { no: '3794b', name: 'Plate Special 1 x 2 with 1 Stud with Groove (Jumper)' },
  { no: '2454b', name: 'Brick 1 x 2 x 5 with Hollow Studs' },
  { no: '6141', name: 'Plate Round 1 x 1 with Solid Stud' },
  { no: '22667', name: 'Plant, Cherries' },
  { no: '4032a', name: 'Plate Round 2 x 2 with Axle Hole Type 1 (+ Opening)' },
  { no: '30179', name: 'Door Frame 1 x 4 x 6 Type 1' },
  { no: '3741', name: 'Plant Flower Stem 1 x 1 x 2/3 with 3 Leaves' },
  ...Array.from({ length: 1_600 }, (_, i) => ({
    no: `${60_000 + i}`,
    name: `Slope ${1 + (i % 4)} x ${2 + (i % 3)} Variant ${i}`,
  })),
];

function fixturePab(): string {
  return bsx(
    Array.from({ length: 1_532 }, (_, i) => ({
      // One lot in eleven gives a number the catalogue lacks and an old name: unplaced, with suggestions.
      // …and a few lots give 4073, as the real inventory's do.
      no: i % 97 === 1 ? '4073' : i % 11 === 0 ? `${900_000 + i}` : `${60_000 + (i % 1_600)}`,
      name: `Slope ${1 + (i % 4)} x ${2 + (i % 3)} Variant ${i % 1_600}${i % 11 === 0 ? ' (old mould)' : ''}`,
      colour: [1, 5, 11, 86, 2][i % 5],
      colourName: ['White', 'Red', 'Black', 'Light Bluish Gray', 'Tan'][i % 5],
      qty: 1 + (i % 40),
      price: `0.${String(1 + (i % 90)).padStart(2, '0')}`,
    })),
  );
}

/** BrickLink's colour list for the colours the documents name (ids and names from the documents; a made-up RGB). */
function coloursXml(...texts: string[]): string {
  // Every colour id the documents give, named as they name it (PAB's lots carry no names: "BrickLink colour N").
  const seen = new Map<number, string>();
  for (const text of texts) {
    for (const item of text.split('<Item>').slice(1)) {
      const id = /<ColorID>(\d+)<\/ColorID>/.exec(item)?.[1];
      const name = /<ColorName>([^<]+)<\/ColorName>/.exec(item)?.[1];
      if (id !== undefined && (name !== undefined || !seen.has(Number(id))))
        seen.set(Number(id), name ?? `BrickLink colour ${id}`);
    }
  }
  // BrickLink's own RGB for the common colours, so that the screenshots look like the shop's; made-up ones for the rest.
  const known: Record<number, string> = {
    1: 'FFFFFF',
    2: 'E4CD9E',
    3: 'F2CD37',
    5: 'C91A09',
    6: '237841',
    11: '05131D',
    34: 'BBE90B',
    85: '6C6E68',
    86: 'A0A5A9',
    88: '582A12',
  };
  const rgb = (id: number) =>
    known[id] ?? ((id * 2_654_435_761) >>> 8).toString(16).padStart(6, '0').slice(0, 6).toUpperCase();
  return `<CATALOG>${[...seen].map(([id, name]) => `<ITEM><COLOR>${id}</COLOR><COLORNAME>${name}</COLORNAME><COLORRGB>${rgb(id)}</COLORRGB></ITEM>`).join('')}</CATALOG>`;
}

describe.runIf(needs(hasChromium(), NEEDS_CHROMIUM, 'the morning walk'))(
  "a worker's morning at the desk, in a real browser",
  () => {
    let dir: string;
    let host: ChildProcess;
    let browser: Awaited<ReturnType<typeof launchBrowser>>;
    let page: Page;
    let real: boolean;
    const paths = { parts: '', colours: '', market: '', pab: '' };
    let shotNo = 0;

    const shot = async (name: string) => {
      shotNo += 1;
      await page.screenshot({ path: path.join(SHOTS, `${String(shotNo).padStart(2, '0')}-${name}.png`) });
    };
    const tab = (name: string) => page.getByRole('navigation', { name: 'Screens' }).getByRole('button', { name });
    const notice = () => page.getByTestId('notice');
    const selectedRow = () => page.locator('.line-row[aria-selected="true"]');

    beforeAll(async () => {
      buildScreens();
      fs.rmSync(SHOTS, { recursive: true, force: true });
      fs.mkdirSync(SHOTS, { recursive: true });
      dir = fs.mkdtempSync(path.join(REPO_ROOT, 'test-results', 'morning-'));
      const market = sharedFile('brickstore-bsx', 'Inventory for 10190-1 Market Street.bsx');
      const pab = sharedFile('brickstore-bsx', 'PAB_inventory_US_July_22_2012.bsx');
      const parts = sharedFile('rebrickable', 'parts.csv.gz');
      real = market !== null && pab !== null && parts !== null;
      paths.market = market ?? path.join(dir, 'Inventory for 10190-1 Market Street.bsx');
      paths.pab = pab ?? path.join(dir, 'PAB_inventory_US_July_22_2012.bsx');
      paths.parts = parts ?? path.join(dir, 'parts.csv.gz');
      if (!real) {
        fs.writeFileSync(paths.market, bsx(FIXTURE_MARKET));
        fs.writeFileSync(paths.pab, fixturePab());
        fs.writeFileSync(paths.parts, zlib.gzipSync(files.rebrickableParts(FIXTURE_PARTS)));
      }
      // BrickLink's colours download, as the README says to load it; without the real data, BrickLink's colour
      // list (XML) of the colours the documents name.
      const realColours = sharedFile('bricklink', 'colors.txt');
      paths.colours = real && realColours !== null ? realColours : path.join(dir, 'colors.xml');
      if (paths.colours !== realColours)
        fs.writeFileSync(
          paths.colours,
          coloursXml(fs.readFileSync(paths.market, 'utf8'), fs.readFileSync(paths.pab, 'utf8')),
        );
      const started = await startHost(path.join(dir, 'brick-work.sqlite'));
      host = started.child;
      const url = started.url;
      browser = await launchBrowser();
      page = await browser.context.newPage();
      const favicon: string[] = [];
      page.on('request', (r) => r.url().includes('favicon') && favicon.push(r.url()));
      await page.goto(url);
      // The page has its icon: no request for /favicon.ico (it answered 404 on every load).
      expect(favicon).toEqual([]);
    }, 180_000);

    afterAll(async () => {
      await browser?.close();
      host?.kill('SIGTERM');
      if (dir) fs.rmSync(dir, { recursive: true, force: true });
    });

    it('goes from an empty store to a fixed, exported order, with every point of issue 10 on the way', async () => {
      // 1. The first start guides: load a catalogue, then import a document; it says which files it takes.
      const guide = page.getByTestId('first-start');
      await guide.waitFor();
      expect(await guide.textContent()).toMatch(/Load the shop’s catalogue.*parts\.csv.*Import an order document/s);
      await shot('first-start');
      await page.getByTestId('first-start-catalogue').setInputFiles([paths.parts, paths.colours]);
      // Seen while it loads: the real catalogue takes seconds; the made one (1,613 items) may be loaded
      // before the page is looked at again, its "Loaded" notice then already in place of this one.
      if (real) await page.getByText(/^Loading parts\.csv/).waitFor();
      const loaded = await notice()
        .filter({ hasText: /^Loaded / })
        .textContent({ timeout: 60_000 });
      expect(loaded).toMatch(real ? /^Loaded 61,770 items, \d+ colours\.$/ : /^Loaded 1,613 items, \d+ colours\.$/);
      await guide.getByText(/Done: [\d,]+ items/).waitFor();
      // Done, and still saying what each table not loaded would add (issue 64 §2).
      expect(await guide.getByTestId('first-start-loaded').textContent()).toContain(
        'No element ids yet: BrickLink’s codes (codes.txt) or Rebrickable’s elements.csv would place a line that gives a LEGO element id',
      );
      await shot('first-start-catalogue-loaded');

      // 2. Import Market Street: the preview shows each line's colour by name.
      await guide.getByRole('button', { name: 'Import a document…' }).click();
      await page.getByTestId('import-file').setInputFiles(paths.market);
      const preview = page.getByTestId('preview');
      await preview.waitFor();
      expect(await preview.locator('tbody tr').filter({ hasText: '4073' }).first().locator('.colour').count()).toBe(1);
      await shot('import-preview-market-street');
      await page.getByTestId('confirm-import').click();
      await page.getByRole('heading', { name: /Order Inventory for 10190-1 Market Street/ }).waitFor();
      const imported = await notice().textContent();
      expect(imported).toMatch(/^Imported Inventory for 10190-1 Market Street\.bsx: [\d,]+ lines, \d+ unplaced\.$/);
      // A placed line shows its item by number and name, and its colour by name with a swatch (the id on hover).
      const placedRow = page.locator('.line-row:not(.unplaced)').first();
      await placedRow.waitFor();
      expect(await placedRow.locator('.c-placed .colour .swatch').count()).toBe(1);
      expect(await placedRow.locator('.c-placed .colour').getAttribute('title')).toMatch(/^BrickLink colour \d+$/);
      await shot('order-market-street');

      // 3. The newer import: the 1,532-lot PAB inventory. How soon its first suggestions come, and its frames while scrolling.
      await tab('Import').click();
      await page.getByTestId('import-file').setInputFiles(paths.pab);
      await preview.waitFor();
      await shot('import-preview-pab');
      // Issue 25, point 7: the preview brings its first 200 lines; more come page by page.
      expect(await preview.locator('tbody tr').count()).toBe(200);
      await page.getByTestId('preview-more').getByText('Show 1,000 more of its 1,532 lines').click();
      await expect.poll(() => preview.locator('tbody tr').count()).toBe(1_200);
      expect(await page.getByTestId('preview-more').textContent()).toBe('Show 332 more of its 1,532 lines');
      await page.getByTestId('confirm-import').click();
      await page.getByRole('heading', { name: /Order PAB_inventory/ }).waitFor();
      const firstSuggestions = (await page.evaluate(FIRST_SUGGESTIONS)) as number;
      const frames = (await page.evaluate(SCROLL_FRAMES)) as number[];
      const times = { suggestions: firstSuggestions, p95: p95(frames), frames: frames.length };
      console.log(
        `the PAB order: first suggestions ${times.suggestions.toFixed(0)} ms after it was shown; scrolling p95 frame ${times.p95.toFixed(1)} ms over ${times.frames} frames (bars, held by npm run bench: 150 ms, 17 ms)`,
      );
      // The bars themselves are held by `npm run bench`; here, on a machine busy with the whole suite, only gross regressions fail.
      expect(times.suggestions).toBeLessThan(1_000);
      expect(times.p95).toBeLessThan(60);
      await shot('order-pab-1532-lots');
      if (real) {
        // Issue 25, point 4: PAB's lines show LEGO's element id, design id and element name (their remarks),
        // and Find in lines finds a line by its element id.
        expect(await page.locator('.line-row .c-remarks').first().getAttribute('title')).toMatch(
          /^PAB Element ID, Design ID, Color - Itemname: \d+, \d+, /,
        );
        await page.getByTestId('find-lines').fill('4211050');
        await expect.poll(() => page.locator('.line-row').count()).toBe(1);
        expect(await page.locator('.line-row .c-given').textContent()).toBe('32002');
        await page.getByTestId('find-lines').fill('');
      }

      // 4. Back to Market Street from the orders list.
      await page.getByRole('button', { name: '← Orders' }).click();
      const marketRow = page.locator('tr.clickable', { hasText: 'Market Street' });
      await marketRow.waitFor();
      await shot('orders-list');
      // A search of orders that finds nothing says so.
      await page.getByLabel('Search orders').fill('no such order');
      await page.getByTestId('orders-empty').getByText('No order matches “no such order”.').waitFor();
      await page.getByLabel('Search orders').fill('');
      await marketRow.click();
      await page.getByRole('heading', { name: /Order Inventory for 10190-1 Market Street/ }).waitFor();
      // The order's own count (the table shows only the rows in view).
      const unplacedOf = async () =>
        Number(/([\d,]+) unplaced/.exec((await page.locator('.counts').textContent()) ?? '')?.[1]?.replace(/,/g, ''));
      const unplacedAtStart = await unplacedOf();

      // The keyboard moves the selection: Home, End, PageDown, PageUp.
      await page.keyboard.press('Home');
      await expect.poll(() => selectedRow().getAttribute('aria-rowindex')).toBe('1');
      await page.keyboard.press('PageDown');
      expect(Number(await selectedRow().getAttribute('aria-rowindex'))).toBeGreaterThan(10);
      await page.keyboard.press('PageUp');
      await expect.poll(() => selectedRow().getAttribute('aria-rowindex')).toBe('1');
      await page.keyboard.press('End');
      const total = Number(await page.getByTestId('line-table').getAttribute('aria-rowcount'));
      await expect.poll(() => selectedRow().getAttribute('aria-rowindex')).toBe(String(total));
      await shot('keyboard-end');

      /** The row index (from 1) of the first unplaced line giving `no`. */
      const indexOf = async (no: string) => {
        for (let top = 0; ; top += 600) {
          await page.getByTestId('line-table').evaluate((el, t) => (el.scrollTop = t), top);
          await page.waitForTimeout(30);
          const found = page
            .locator('.line-row.unplaced')
            .filter({ has: page.locator('.c-given', { hasText: new RegExp(`^${no} · `) }) })
            .first();
          if ((await found.count()) > 0) return Number(await found.getAttribute('aria-rowindex'));
          if (top > total * 30) throw new Error(`no unplaced line gives ${no}`);
        }
      };

      // 5. Five lines fixed by keyboard only: to the line (Home, ↓…), Enter to its suggestions, ↓ to the
      //    one whose number is the given one's variant, Enter. The selection then moves to the next unplaced line below.
      for (const no of ['44302', '3861', '3957', '2454', '4032']) {
        const index = await indexOf(no);
        await page.getByTestId('line-table').focus();
        await page.keyboard.press('Home');
        for (let i = 1; i < index; i++) await page.keyboard.press('ArrowDown');
        await expect.poll(() => selectedRow().getAttribute('aria-rowindex')).toBe(String(index));
        const list = page.getByTestId('suggestions');
        await list.locator('li:not(.empty)').first().waitFor();
        const options = await list.locator('li b').allTextContents();
        const pick = options.findIndex((o) => new RegExp(`^P ${no}[a-z]$`).test(o.trim()));
        expect(pick, `a variant of ${no} among ${options.join(', ')}`).toBeGreaterThanOrEqual(0);
        await page.keyboard.press('Enter');
        for (let i = 0; i < pick; i++) await page.keyboard.press('ArrowDown');
        await page.keyboard.press('Enter');
        await notice()
          .filter({ hasText: new RegExp(`^Placed line \\d+ on ${options[pick]?.trim()}`) })
          .waitFor();
        // The selection goes on to the next unplaced line below (past the last one, from the top).
        await expect.poll(() => selectedRow().getAttribute('aria-rowindex')).not.toBe(String(index));
        expect(await selectedRow().getAttribute('class')).toContain('unplaced');
        const now = Number(await selectedRow().getAttribute('aria-rowindex'));
        const between = await page.locator('.line-row.unplaced').evaluateAll(
          (rows, [from, to]) =>
            rows.filter((r) => {
              const i = Number(r.getAttribute('aria-rowindex'));
              return i > (from ?? 0) && i < (to ?? 0);
            }).length,
          [index, now] as const,
        );
        if (now > index) expect(between, 'no unplaced line skipped between').toBe(0);
      }
      await shot('fixed-by-keyboard');

      // 6. One by a typed number: 4073, whose other lots are then placed too, each in its own colour.
      const first4073 = await indexOf('4073');
      await page.getByTestId('line-table').focus();
      await page.keyboard.press('Home');
      for (let i = 1; i < first4073; i++) await page.keyboard.press('ArrowDown');
      await page.keyboard.press('/');
      await page.keyboard.type('6141');
      await page
        .getByTestId('suggestions')
        .locator('li b', { hasText: /^P 6141$/ })
        .waitFor();
      await page.keyboard.press('Enter');
      const results = await page.getByTestId('suggestions').locator('li b').allTextContents();
      for (let i = 0; i < results.findIndex((r) => r.trim() === 'P 6141'); i++) await page.keyboard.press('ArrowDown');
      await page.keyboard.press('Enter');
      const placed4073 = await notice()
        .filter({ hasText: /on P 6141/ })
        .textContent();
      // The given name differs from the item's: it is taught (SPEC §7), and the message says so.
      expect(placed4073).toMatch(
        /^Placed line \d+ on P 6141 \(.+\) in \w[\w ]*, and \d+ more lines giving 4073 \(in orders .*Market Street\.bsx, PAB_inventory.*\), each in its own colour\. Suggestions now find it by “.+” too\.$/,
      );
      // …in every order: the PAB inventory's 4073s too.
      expect(Number(/and (\d+) more/.exec(placed4073 ?? '')?.[1])).toBeGreaterThan(real ? 8 : 3);
      await page.getByLabel('Unplaced only').check();
      await expect.poll(() => page.locator('.line-row .c-given', { hasText: /^4073 · / }).count()).toBe(0);
      await page.getByLabel('Unplaced only').uncheck();
      // Each 4073 is on 6141 in the colour its own lot gives.
      for (let top = 0; top <= total * 30; top += 600) {
        await page.getByTestId('line-table').evaluate((el, t) => (el.scrollTop = t), top);
        await page.waitForTimeout(30);
        for (const row of await page
          .locator('.line-row')
          .filter({ has: page.locator('.c-given', { hasText: /^4073 · / }) })
          .all()) {
          const given = (await row.locator('.c-colour').textContent())?.trim();
          expect(await row.locator('.c-placed').textContent()).toContain('P 6141');
          expect((await row.locator('.c-placed .colour').textContent())?.trim()).toBe(given);
        }
      }
      await shot('fixed-by-typed-number');

      // 7. The search box belongs to the selected line: an old query is cleared when the selection
      //    moves, no match says so, and Enter on it places nothing.
      const jumper = await indexOf('3794');
      await page.getByTestId('line-table').focus();
      // Messages stay until read (issue 64 §2): the one about the 4073s stays a few seconds after the
      // worker's next keypress, then goes; the History panel keeps it.
      expect(await notice().count()).toBe(1);
      const said = (await notice().textContent()) ?? '';
      await page.keyboard.press('Home');
      await page.waitForTimeout(1_500);
      expect(await notice().count()).toBe(1);
      await expect.poll(() => notice().count(), { timeout: 15_000 }).toBe(0);
      await page.getByRole('button', { name: 'History' }).click();
      expect(await page.getByTestId('said-lately').textContent()).toContain(said.slice(0, 40));
      await page.keyboard.press('Escape');
      await page.getByTestId('line-table').focus();
      for (let i = 1; i < jumper; i++) await page.keyboard.press('ArrowDown');
      await page.keyboard.press('/');
      await page.keyboard.type('jumper');
      await page.getByTestId('suggestions').locator('li:not(.empty)').first().waitFor();
      await shot('search-with-a-query');
      await page.keyboard.press('Escape');
      const cherries = await indexOf('x18');
      await page.getByTestId('line-table').focus();
      await page.keyboard.press('Home');
      for (let i = 1; i < cherries; i++) await page.keyboard.press('ArrowDown');
      await expect.poll(() => page.getByTestId('catalogue-search').inputValue()).toBe('');
      await page.keyboard.press('/');
      // No word of it is in any name (closest names would find "part"): nothing matches.
      await page.keyboard.type('zzqx qqzv');
      await page.getByTestId('no-options').getByText('Nothing in the catalogue matches “zzqx qqzv”.').waitFor();
      await shot('search-no-match');
      await page.keyboard.press('Enter');
      await page.waitForTimeout(300);
      expect(await selectedRow().getAttribute('class')).toContain('unplaced');
      expect(await selectedRow().getAttribute('aria-rowindex')).toBe(String(cherries));
      await page.keyboard.press('Escape');
      expect(await page.getByTestId('catalogue-search').inputValue()).toBe('');
      // Its own suggestions, then: Plant, Cherries.
      const own = page.getByTestId('suggestions');
      await own.locator('li b', { hasText: /^P 22667$/ }).waitFor();
      await own.locator('li', { hasText: 'P 22667' }).click();
      await notice()
        .filter({ hasText: /^Placed line \d+ on P 22667/ })
        .waitFor();
      expect(await notice().textContent()).toMatch(
        /and \d+ more lines? giving x18( \(in orders? [^)]+\))?, each in its own colour/,
      );

      // 8. Three more by hand, with the search box and the mouse: the jumper, the flower stem, the door frame.
      for (const [no, query, pick] of [
        ['3794', '3794', /^P 3794b$/],
        ['x8', 'Plant Flower Stem', /^P 3741$/],
        ['30179c05', '30179', /^P 30179$/],
      ] as const) {
        const index = await indexOf(no).catch(() => null);
        if (index === null) continue; // a fixture's line already placed by a memory
        await page.locator(`.line-row[aria-rowindex="${index}"]`).click();
        await page.getByTestId('catalogue-search').fill(query);
        const option = page
          .getByTestId('suggestions')
          .locator('li')
          .filter({ has: page.locator('b', { hasText: pick }) });
        await option.first().waitFor();
        const number = ((await option.first().locator('b').textContent()) ?? '').trim();
        await option.first().click();
        await notice()
          .filter({ hasText: new RegExp(`^Placed line \\d+ on ${number} `) })
          .waitFor();
      }
      // Ten fixes by hand, and the lines their memories placed at once (4073, Cherries, 3794). The notice
      // comes as the fix is done; the counts as the order is read again just after: polled.
      await expect.poll(unplacedOf).toBeLessThanOrEqual(unplacedAtStart - 10 - (real ? 10 : 3));
      await shot('order-after-ten-fixes');
      const orderCounts = await page.locator('.counts').textContent();

      // 9. Take back the older import while the newer stays: the order shows it is undone.
      await page.getByTestId('documents').locator('summary').click();
      await shot('documents-of-the-order');
      await page.getByTestId('take-back').click();
      await page.getByTestId('take-back-confirm').waitFor();
      await shot('take-back-asks');
      await page.getByTestId('take-back-only').click();
      await page.getByTestId('order-undone').waitFor();
      expect(await page.getByTestId('order-undone').textContent()).toMatch(
        /Taken back on .+; import the file again to revive it\./,
      );
      await shot('order-taken-back');
      await page.getByRole('button', { name: '← Orders' }).click();
      await page.locator('tr.clickable', { hasText: 'Market Street' }).getByTestId('order-undone-tag').waitFor();
      expect(
        await page.locator('tr.clickable', { hasText: 'PAB_inventory' }).getByTestId('order-undone-tag').count(),
      ).toBe(0);
      await shot('orders-one-taken-back');
      expect(await page.getByTestId('undo').textContent()).toContain(
        'Undo Take back of Inventory for 10190-1 Market Street.bsx',
      );

      // The summary leaves it out.
      await tab('Export').click();
      let download = page.waitForEvent('download');
      await page.getByRole('button', { name: 'Export the summary…' }).click();
      const summary = fs.readFileSync((await (await download).path()) ?? '', 'utf8');
      expect(summary).toContain('PAB_inventory');
      expect(summary).not.toContain('Market Street');

      // 10. Revive it by importing the file again: its lines come back, the fixes by hand with them.
      await tab('Import').click();
      await page.getByTestId('import-file').setInputFiles(paths.market);
      await page.getByTestId('revival').waitFor();
      expect(await page.getByTestId('revival').textContent()).toMatch(
        /This document was imported on .+ and undone on .+\./,
      );
      await shot('revival');
      await page.getByTestId('confirm-import').click();
      await page.getByRole('heading', { name: /Order Inventory for 10190-1 Market Street/ }).waitFor();
      expect(await notice().textContent()).toMatch(/^Revived Inventory for 10190-1 Market Street\.bsx/);
      await expect.poll(() => page.locator('.counts').textContent()).toBe(orderCounts);
      await shot('order-revived');

      // 11. Undo and redo with the keyboard: Ctrl+Z (⌘Z) takes the revival back, Ctrl+Y (Windows and Linux; ⇧⌘Z on a
      // Mac) puts it back.
      await page.getByTestId('line-table').focus();
      await pressShortcut(page, 'undo');
      await notice()
        .filter({ hasText: /^Undone: Revival of Inventory for 10190-1 Market Street\.bsx/ })
        .waitFor();
      await page.getByTestId('order-undone').waitFor();
      await pressShortcut(page, 'redo (Ctrl+Y)');
      await notice()
        .filter({ hasText: /^Redone: Revival/ })
        .waitFor();
      await expect.poll(() => page.locator('.counts').textContent()).toBe(orderCounts);
      await shot('undo-redo');

      // 12. Export its BrickLink XML: each lot in its own colour (the 4073s are not all one colour).
      // Each screen's list is its own: a search left in Orders never narrows what Export offers (issue 64 §2).
      await tab('Orders').click();
      await page.getByLabel('Search orders').fill('no such order');
      await page.getByTestId('orders-empty').waitFor();
      await tab('Export').click();
      await expect
        .poll(() => page.getByLabel('Order to export').locator('option', { hasText: 'Market Street' }).count())
        .toBe(1);
      await page.getByLabel('Order to export').selectOption({
        label:
          (await page.getByLabel('Order to export').locator('option', { hasText: 'Market Street' }).textContent()) ??
          '',
      });
      // The catalogue is Rebrickable's parts and nothing loaded gives BrickLink's number for 6141 (the 4073s
      // fixed by hand onto it): the export lists those lines, each in its own colour, and asks (issue 43).
      await page.getByRole('button', { name: 'Export BrickLink XML…' }).click();
      await page.getByTestId('export-review').waitFor();
      const unnumbered = await page
        .getByTestId('export-review-lines')
        .locator('tbody tr', { hasText: 'P 6141' })
        .allTextContents();
      expect(new Set(unnumbered.map((r) => /\(([^)]+)\)/.exec(r)?.[1])).size).toBeGreaterThanOrEqual(3);
      await shot('export-review');
      download = page.waitForEvent('download');
      await page.getByTestId('export-review-confirm').click();
      const xml = fs.readFileSync((await (await download).path()) ?? '', 'utf8');
      // Never Rebrickable's number under BrickLink's name; no XML declaration, which BrickLink refuses.
      expect(xml).not.toContain('<ITEMID>6141</ITEMID>');
      expect(xml.startsWith('<INVENTORY>')).toBe(true);
      expect(await page.getByTestId('export-left-out').textContent()).toContain('P 6141');
      await shot('export');

      // 13. Settings: the remembered placements and colours by name; Enter saves a field.
      await tab('Settings').click();
      const remembered = page.getByRole('table', { name: 'Remembered placements' });
      await remembered.waitFor();
      expect(await remembered.textContent()).toContain('P 4073');
      const currency = page.getByLabel('Currency of documents that name none');
      await currency.fill('EUR');
      await currency.press('Enter');
      await notice().getByText('Saved.').waitFor();
      await shot('settings');

      // 14. The catalogue and its jobs, in words: a look-up left running by a process that died meanwhile.
      const Database = (await import('better-sqlite3')).default;
      const raw = new Database(path.join(dir, 'brick-work.sqlite'));
      const now = new Date().toISOString();
      const jobId = Number(
        raw
          .prepare(
            "INSERT INTO job (kind, state, payload, created_at, updated_at) VALUES ('catalogue-lookup', 'running', '{}', ?, ?)",
          )
          .run(now, now).lastInsertRowid,
      );
      raw
        .prepare(
          "INSERT INTO job_owner (job_id, pid, boot_id, start_ticks, claimed_at) VALUES (?, 2147483646, 'gone', 1, ?)",
        )
        .run(jobId, now);
      raw.close();
      await tab('Catalogue & jobs').click();
      await page
        .getByTestId('job-owner')
        .getByText('left running by a desk or process that is gone; it waits for a desk with BrickLink credentials')
        .waitFor();
      expect(await page.getByRole('table', { name: 'Jobs' }).textContent()).not.toMatch(/pid|alive/);
      await page.getByTestId('catalogue-size').waitFor();
      expect(await page.getByTestId('catalogue-size').textContent()).toMatch(real ? /61,770 items/ : /1,613 items/);
      expect(await page.locator('.muted', { hasText: 'Last load' }).textContent()).toMatch(/loaded/);
      await shot('catalogue-and-jobs');
    }, 600_000);
  },
);
