/**
 * Issue 61 §3 in Debian's Chromium through the browser host: a hand placement that waits for another
 * desk's catalogue load (it holds the store's writes) says so on the screen after a moment — "Waiting for
 * desk "front"'s catalogue load…" — and the line shows nothing new until its answer comes; Enter pressed
 * again meanwhile is not a second step. Screens are saved in test-results/waiting/.
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
import { lines, spawnWorker } from '../helpers/workers.ts';

const SHOTS = path.join(REPO_ROOT, 'test-results', 'waiting');

describe.runIf(needs(hasChromium(), NEEDS_CHROMIUM, 'waiting said on the screen'))(
  'a placement waiting for another desk’s load, on the screen (issue 61 §3)',
  () => {
    let dir: string;
    let db: string;
    let host: ChildProcess;
    let browser: Awaited<ReturnType<typeof launchBrowser>>;
    let page: Page;

    beforeAll(async () => {
      buildScreens();
      fs.rmSync(SHOTS, { recursive: true, force: true });
      fs.mkdirSync(SHOTS, { recursive: true });
      dir = fs.mkdtempSync(path.join(REPO_ROOT, 'test-results', 'waiting-'));
      db = path.join(dir, 'brick-work.sqlite');
      fs.writeFileSync(
        path.join(dir, 'parts.csv'),
        files.rebrickableParts([
          { no: '3001', name: 'Brick 2 x 4' },
          { no: '3003', name: 'Brick 2 x 2' },
        ]),
      );
      fs.writeFileSync(
        path.join(dir, 'Falcon.bsx'),
        bsx([
          { no: '3001', name: 'Brick 2 x 4', qty: 10 },
          { no: 'x77', name: 'Mystery brick', qty: 4 },
        ]),
      );
      for (const args of [
        ['catalogue', 'import', path.join(dir, 'parts.csv')],
        ['import', path.join(dir, 'Falcon.bsx')],
      ]) {
        const r = await cliJson(['--db', db, ...args]);
        expect(r.code, r.stderr).toBe(0);
      }
      const started = await startHost(db, ['--desk', 'back']);
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

    it('said after a moment, naming the desk and its work; the line unchanged until the answer; Enter again is no second step', async () => {
      await page.getByRole('navigation', { name: 'Screens' }).getByRole('button', { name: 'Orders' }).click();
      await page.locator('tr.clickable', { hasText: 'Falcon.bsx' }).click();
      const line = page.locator('.line-row', { hasText: 'x77' });
      await line.click();
      await page.getByTestId('catalogue-search').fill('3003');
      await page
        .getByTestId('suggestions')
        .locator('li b', { hasText: /^P 3003$/ })
        .waitFor();
      await page.keyboard.press('Enter'); // from the search box to its results

      // Desk "front" loads a catalogue: its merge holds the store's writes.
      const front = spawnWorker('load-lock-holder', [db], {
        env: { ...process.env, BRICK_WORK_DESK: 'front' },
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      await lines(front).waitFor(/^locked$/);
      await page.keyboard.press('Enter');
      const waiting = page.getByTestId('waiting');
      await waiting.waitFor({ timeout: 5_000 });
      expect(await waiting.textContent()).toBe('Waiting for desk "front"\'s catalogue load…');
      // Impatient keys: nothing more is asked, and the line shows nothing new.
      await page.keyboard.press('Enter');
      await page.keyboard.press('Enter');
      expect(await line.textContent()).not.toContain('3003');
      await page.screenshot({ path: path.join(SHOTS, '1-waiting-for-front.png') });

      front.stdin?.write('go\n');
      await expect.poll(async () => (await line.textContent()) ?? '', { timeout: 10_000 }).toContain('3003');
      await waiting.waitFor({ state: 'detached', timeout: 5_000 });
      await page.screenshot({ path: path.join(SHOTS, '2-placed.png') });
      const history = await cliJson(['--db', db, 'history']);
      const steps = (history.json.steps as { label: string }[]).filter((s) =>
        s.label.startsWith('Hand placement of x77'),
      );
      expect(steps, 'one step for one placement').toHaveLength(1);
    }, 60_000);
  },
);
