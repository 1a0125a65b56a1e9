/**
 * Two desks on one shop server (issue 29, SPEC §14) in Debian's Chromium: two browser hosts, each started
 * with `--db postgres://…` as a desk would be, one page each. An import on one desk shows on the other's
 * order list without a reload; a hand placement on the second shows on the first; Settings names the
 * server the desk works on, without its password; a desk whose login may only read says so in its banner.
 * Each desk (named with `--desk`) has its own Undo: the other desk's newer step is never what it names.
 * Screens are saved in test-results/desks/.
 */
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, NEEDS_CHROMIUM, hasChromium, startHost, buildScreens } from '../helpers/browser.ts';
import { files } from '../helpers/catalogue-files.ts';
import { cliJson, REPO_ROOT } from '../helpers/cli.ts';
import { bsx } from '../helpers/documents.ts';
import { needs } from '../helpers/needs.ts';
import { hasPostgres, NEEDS_POSTGRES, startPostgres, type PostgresServer } from '../helpers/postgres.ts';

const SHOTS = path.join(REPO_ROOT, 'test-results', 'desks');

describe.runIf(
  needs(hasChromium(), NEEDS_CHROMIUM, 'two desks in the browser') &&
    needs(hasPostgres(), NEEDS_POSTGRES, 'two desks in the browser'),
)('two desks on one shop server, in the browser', () => {
  let server: PostgresServer;
  let dir: string;
  let url: string;
  const hosts: ChildProcess[] = [];
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let a: Page;
  let b: Page;
  const tab = (page: Page, name: string) =>
    page.getByRole('navigation', { name: 'Screens' }).getByRole('button', { name });

  beforeAll(async () => {
    buildScreens();
    fs.rmSync(SHOTS, { recursive: true, force: true });
    fs.mkdirSync(SHOTS, { recursive: true });
    server = await startPostgres({ own: true });
    server.sql('postgres', "ALTER ROLE brick_work PASSWORD 'open-sesame'");
    server.createDatabase('shop');
    // The password as PostgreSQL users give it (never in --db, where `ps` shows it): the CLI and hosts
    // started here inherit it.
    process.env['PGPASSWORD'] = 'open-sesame';
    url = server.url('shop');
    dir = fs.mkdtempSync(path.join(REPO_ROOT, 'test-results', 'desks-'));
    fs.writeFileSync(
      path.join(dir, 'parts.csv'),
      files.rebrickableParts([
        { no: '3001', name: 'Brick 2 x 4' },
        { no: '3003', name: 'Brick 2 x 2' },
      ]),
    );
    fs.writeFileSync(
      path.join(dir, 'Kestrel.bsx'),
      bsx([
        { no: '3001', name: 'Brick 2 x 4', qty: 2 },
        { no: 'x88', name: 'Odd brick', qty: 1 },
      ]),
    );
    fs.writeFileSync(
      path.join(dir, 'Falcon.bsx'),
      bsx([
        { no: '3001', name: 'Brick 2 x 4', qty: 10 },
        { no: 'x77', name: 'Mystery brick', qty: 4 },
      ]),
    );
    const loaded = await cliJson(['--db', url, 'catalogue', 'import', path.join(dir, 'parts.csv')]);
    expect(loaded.code, loaded.stderr).toBe(0);
    browser = await launchBrowser();
    for (const desk of ['SHOP-1', 'SHOP-2']) {
      const started = await startHost(url, ['--desk', desk]);
      hosts.push(started.child);
      const page = await browser.context.newPage();
      await page.goto(started.url);
      if (a === undefined) a = page;
      else b = page;
    }
  }, 180_000);

  afterAll(async () => {
    delete process.env['PGPASSWORD'];
    await browser?.close();
    for (const h of hosts) h.kill('SIGTERM');
    server?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it("an import on one desk appears on the other's order list, and a fix on the other appears on the first", async () => {
    await tab(b, 'Orders').click();
    await tab(a, 'Import').click();
    await a.getByTestId('import-file').setInputFiles(path.join(dir, 'Falcon.bsx'));
    await a.getByTestId('preview').waitFor();
    await a.getByTestId('confirm-import').click();
    await a.getByRole('heading', { name: /Order Falcon\.bsx/ }).waitFor();
    // Desk B was not touched: its list shows the order by itself.
    await b.locator('tr.clickable', { hasText: 'Falcon.bsx' }).waitFor({ timeout: 5_000 });
    await b.screenshot({ path: path.join(SHOTS, '1-desk-b-sees-the-import.png') });

    // Desk B fixes the unplaced line by hand; desk A's open order shows it placed.
    const line = (await cliJson(['--db', url, 'lines', '1', '--unplaced'])).json.lines[0];
    const placed = await cliJson(['--db', url, 'place', String(line.id), 'P', '3003']);
    expect(placed.code, placed.stderr).toBe(0);
    await expect
      .poll(async () => (await a.locator('.line-row', { hasText: 'x77' }).textContent()) ?? '', { timeout: 5_000 })
      .toContain('3003');
    await a.screenshot({ path: path.join(SHOTS, '2-desk-a-sees-the-fix.png') });
  });

  it("each desk its own Undo, side by side: B's fix shows on A by itself, and A's Undo names A's own step, not B's newer one", async () => {
    const undo = (page: Page) => page.getByTestId('undo');
    // Desk A (SHOP-1) imports Kestrel; desk B (SHOP-2) has its orders list open.
    await tab(b, 'Orders').click();
    await tab(a, 'Import').click();
    await a.getByTestId('import-file').setInputFiles(path.join(dir, 'Kestrel.bsx'));
    await a.getByTestId('preview').waitFor();
    await a.getByTestId('confirm-import').click();
    await a.getByRole('heading', { name: /Order Kestrel\.bsx/ }).waitFor();
    await expect.poll(() => undo(a).getAttribute('aria-label')).toBe('Undo Import of Kestrel.bsx');

    // Desk B, untouched, lists it by itself, opens it and fixes its unplaced line by hand.
    await b.locator('tr.clickable', { hasText: 'Kestrel.bsx' }).click({ timeout: 5_000 });
    await b.locator('.line-row', { hasText: 'x88' }).click();
    await b.getByTestId('catalogue-search').fill('3003');
    await b
      .getByTestId('suggestions')
      .locator('li b', { hasText: /^P 3003$/ })
      .waitFor();
    await b.keyboard.press('Enter');
    await b.keyboard.press('Enter');
    await expect
      .poll(() => undo(b).getAttribute('aria-label'))
      .toMatch(/^Undo Hand placement of x88 \(Kestrel\.bsx, line 2\) on P 3003/);

    // Desk A's open order shows B's fix by itself; its Undo still names its own import, not B's newer step.
    await expect
      .poll(async () => (await a.locator('.line-row', { hasText: 'x88' }).textContent()) ?? '', { timeout: 5_000 })
      .toContain('3003');
    expect(await undo(a).getAttribute('aria-label')).toBe('Undo Import of Kestrel.bsx');
    await a.screenshot({ path: path.join(SHOTS, '3-desk-a-undo-names-its-own-step.png') });
    await b.screenshot({ path: path.join(SHOTS, '4-desk-b-undo-names-its-fix.png') });

    // A's Undo would pull the order from under B's fix: refused, naming B's desk and step, nothing changed;
    // the notice offers to show that step, in the history of every desk's steps.
    await undo(a).click();
    const refused = a.getByTestId('notice').filter({ hasText: /^Undo of "Import of Kestrel\.bsx"/ });
    await refused.waitFor();
    expect(await refused.textContent()).toMatch(/the desk "SHOP-2" did since: "Hand placement of x88/);
    expect(server.sql('shop', "SELECT state FROM document WHERE doc_key = 'Kestrel.bsx'")).toBe('imported');
    await a.getByTestId('notice-show-step').click();
    const named = a.getByTestId('history-panel').locator('tr.named');
    await named.waitFor();
    expect(await named.textContent()).toMatch(/Hand placement of x88.*the desk "SHOP-2"/);
    await expect.poll(() => named.evaluate((el) => el === el.ownerDocument.activeElement)).toBe(true);
    const own = a.getByTestId('history-step').filter({ hasText: 'Import of Kestrel.bsx' });
    expect(await own.textContent()).toContain('this desk');
    await a.screenshot({ path: path.join(SHOTS, '5-desk-a-refused-shows-the-other-desks-step.png') });
    await a.keyboard.press('Escape');
    expect(await a.getByTestId('history-panel').count()).toBe(0);

    // B takes back its fix with its own Undo; then A's Undo goes through, and B's screen follows by itself.
    await undo(b).click();
    await b
      .getByTestId('notice')
      .filter({ hasText: /^Undone: Hand placement of x88/ })
      .waitFor();
    await expect.poll(() => undo(a).getAttribute('aria-label')).toBe('Undo Import of Kestrel.bsx');
    await undo(a).click();
    await a.getByTestId('notice').filter({ hasText: 'Undone: Import of Kestrel.bsx' }).waitFor();
    expect(server.sql('shop', "SELECT state FROM document WHERE doc_key = 'Kestrel.bsx'")).toBe('undone');
    // A's new step did not drop B's Redo: each desk's history is its own.
    expect(await b.getByTestId('redo').getAttribute('aria-label')).toMatch(/^Redo Hand placement of x88/);
  });

  it('Settings names the server this desk works on, never its password', async () => {
    await tab(a, 'Settings').click();
    const card = a.locator('.card', { has: a.getByRole('heading', { name: 'Shop server' }) });
    await expect.poll(() => card.textContent()).toContain(`shop’s store on 127.0.0.1:${server.port}/shop`);
    expect(await a.content()).not.toContain('open-sesame');
    await card.screenshot({ path: path.join(SHOTS, '6-settings-shop-server.png') });
  });

  it('a desk whose login may only read sees the orders and a banner that says why; what writes is off there', async () => {
    server.sql('shop', 'CREATE ROLE looker LOGIN; GRANT SELECT ON ALL TABLES IN SCHEMA public TO looker');
    const started = await startHost(server.url('shop').replace('brick_work@', 'looker@'));
    hosts.push(started.child);
    const page = await browser.context.newPage();
    await page.goto(started.url);
    const banner = page.getByTestId('read-only-banner');
    await expect
      .poll(() => banner.textContent(), { timeout: 10_000 })
      .toMatch(/^Read only: .*the login looker may only read it\. .*ask whoever runs the shop's server/);
    // Undo writes: it is off here, though the history names the newest step.
    await expect
      .poll(() => page.getByTestId('undo').textContent(), { timeout: 10_000 })
      .toMatch(/^Undo Hand placement of x77/);
    expect(await page.getByTestId('undo').isDisabled()).toBe(true);
    expect(await page.getByTestId('undo').getAttribute('title')).toMatch(/can't be written/);
    await tab(page, 'Orders').click();
    await page.locator('tr.clickable', { hasText: 'Falcon.bsx' }).click();
    await page.getByTestId('documents').locator('summary').click();
    const takeBack = page.getByTestId('take-back');
    expect(await takeBack.isDisabled()).toBe(true);
    expect(await takeBack.getAttribute('title')).toMatch(/can't be written: see the banner above/);
    // Placing by hand is off too: the line's search answers (a read), its results are there to look at,
    // and Enter on one places nothing — no refusal to read afterwards, the line stays where it was.
    await page.locator('.line-row', { hasText: 'x77' }).click();
    expect(await page.getByTestId('placing-off').textContent()).toMatch(/^Placing is off: this store can't be written/);
    await page.getByTestId('catalogue-search').fill('3001');
    const result = page.getByTestId('suggestions').locator('li', { hasText: 'P 3001' });
    await result.waitFor();
    expect(await result.getAttribute('aria-disabled')).toBe('true');
    await page.getByTestId('catalogue-search').press('Enter');
    await result.click();
    await page.getByTestId('suggestions').press('Enter');
    await page.screenshot({ path: path.join(SHOTS, '7-placing-off-on-a-desk-that-may-only-read.png') });
    expect(await page.getByTestId('notice').count()).toBe(0);
    expect(server.sql('shop', "SELECT item_no FROM order_line WHERE given_no = 'x77'")).toBe('3003');
    // A document is read and previewed; Import is off, and says why (the core's refusal in words is
    // test/store/postgres/faults.test.ts's): one banner, not a second one for a refused click.
    fs.writeFileSync(path.join(dir, 'Hawk.bsx'), bsx([{ no: '3001', name: 'Brick 2 x 4', qty: 1 }]));
    await tab(page, 'Import').click();
    await page.getByTestId('import-file').setInputFiles(path.join(dir, 'Hawk.bsx'));
    await page.getByTestId('preview').waitFor();
    const importButton = page.getByTestId('confirm-import');
    expect(await importButton.isDisabled()).toBe(true);
    expect(await importButton.getAttribute('title')).toMatch(/can't be written: see the banner above/);
    await page.screenshot({ path: path.join(SHOTS, '8-a-desk-that-may-only-read.png') });
    expect(server.sql('shop', "SELECT count(*) FROM document WHERE doc_key = 'Hawk.bsx'")).toBe('0');
  });
});
