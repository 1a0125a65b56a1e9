/**
 * The browser host's token in a real browser (Debian Chromium), with a second server on another
 * 127.0.0.1 port (issue 26, point 3): the page works with the token from the printed URL's fragment, a
 * reload still has it, and the token never reaches the other server — no cookie, no header, no address.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { BODY_LIMIT } from '../../src/host/uploads.ts';
import { NEEDS_CHROMIUM, hasChromium, launchBrowser, startHost, buildScreens } from '../helpers/browser.ts';
import { tempDir } from '../helpers/temp.ts';
import { needs } from '../helpers/needs.ts';

describe.runIf(needs(hasChromium(), NEEDS_CHROMIUM, 'the token walk'))(
  'the browser host keeps its token to itself (real Chromium)',
  () => {
    beforeAll(() => {
      buildScreens();
    }, 120_000);
    let other: http.Server | null = null;
    afterAll(() => other?.close());

    it('the page works from the fragment, and another server on this machine never receives the token', async () => {
      const started = await startHost(path.join(tempDir(), 'brick-work.sqlite'));
      onTestFinished(() => void started.child.kill('SIGTERM'));
      const token = /#token=([\w-]+)$/.exec(started.url)?.[1] ?? '';
      expect(token.length).toBeGreaterThan(40);
      // Another server on this machine, as any local program could run: it records what browsers send it.
      const seen: string[] = [];
      other = http.createServer((req, res) => {
        seen.push(`${req.method} ${req.url} ${JSON.stringify(req.headers)}`);
        res.writeHead(200, { 'Content-Type': 'text/html' });
        res.end('<!doctype html><title>elsewhere</title><img src="/pixel.png">');
      });
      await new Promise<void>((resolve) => other?.listen(0, '127.0.0.1', resolve));
      const otherUrl = `http://127.0.0.1:${(other.address() as AddressInfo).port}/`;

      const browser = await launchBrowser();
      onTestFinished(() => browser.close());
      const page = await browser.context.newPage();
      await page.goto(started.url);
      // The screens work: their calls carry the token (the first-start guide comes from catalogue.status).
      await page.getByTestId('first-start').waitFor();
      expect(page.url()).not.toContain(token);
      // A reload still has it (kept for the tab), though the address no longer shows it.
      await page.reload();
      await page.getByTestId('first-start').waitFor();
      // The other server, in another tab and in this one: nothing of the token reaches it.
      const elsewhere = await browser.context.newPage();
      await elsewhere.goto(otherUrl);
      await page.goto(otherUrl);
      await page.goBack();
      await page.getByTestId('first-start').waitFor();
      expect(seen.length).toBeGreaterThan(0);
      for (const request of seen) expect(request).not.toContain(token);
      expect(await browser.context.cookies()).toEqual([]);
      // A page of the other server can't call the host without the token (and the host says so).
      const host = new URL(started.url).origin;
      expect(
        await elsewhere.evaluate(async (h) => {
          try {
            return (await fetch(`${h}/api/call/settings.get`, { method: 'POST', body: '{}' })).status;
          } catch {
            return 'refused';
          }
        }, host),
      ).not.toBe(200);
      // A body past the limit gets the host's plain answer, not a broken connection.
      const tooBig = await page.evaluate(
        async ({ size, t }) => {
          const r = await fetch('/api/call/settings.get', {
            method: 'POST',
            headers: { Authorization: `Bearer ${t}` },
            body: new Blob([new Uint8Array(size).fill(0x20)]),
          });
          return { status: r.status, text: await r.text() };
        },
        { size: BODY_LIMIT + 1, t: token },
      );
      expect(tooBig.status).toBe(413);
      expect(tooBig.text).toMatch(/^brick-work: .*over the 64 MB/);
    }, 120_000);
  },
);
