import type { Page } from 'playwright-core';
import { describe, expect, it, onTestFinished } from 'vitest';
import { BODY_LIMIT } from '../../src/host/server.ts';
import { hasChromium, launchBrowser } from '../helpers/browser.ts';
import { host } from './helpers.ts';

/**
 * A call the way the page makes it (renderer/bridge.ts): a POST that carries whatever cookies the
 * browser sends. The body is `{}`, or that many spaces (a Blob: Chromium sends a big string slowly).
 */
function callFrom(page: Page, size?: number): Promise<{ status: number; text: string }> {
  return page.evaluate(async (size) => {
    const r = await fetch('/api/call/settings.get', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: size === undefined ? '{}' : new Blob([new Uint8Array(size).fill(0x20)]),
    });
    return { status: r.status, text: await r.text() };
  }, size);
}

describe.runIf(hasChromium())('the browser host in a real browser (Debian Chromium): one cookie per start', () => {
  it("keeps two hosts on two ports apart, and a restarted host's fresh URL wins over the old cookie", async () => {
    const a = await host();
    const b = await host();
    const browser = await launchBrowser();
    onTestFinished(() => browser.close());

    const pageA = await browser.context.newPage();
    expect((await pageA.goto(a.url))?.status()).toBe(200);
    expect(await pageA.title()).toBe('brick-work');
    expect(pageA.url()).toBe(`http://127.0.0.1:${a.port}/`);
    expect(await callFrom(pageA)).toMatchObject({ status: 200, text: expect.stringContaining('"ok":true') as string });

    // A second host on another port: Chromium sends it A's cookie too (cookies are not scoped by port),
    // and B's own cookie must not replace A's.
    const pageB = await browser.context.newPage();
    expect((await pageB.goto(b.url))?.status()).toBe(200);
    expect(await callFrom(pageB)).toMatchObject({ status: 200 });
    expect(await callFrom(pageA)).toMatchObject({ status: 200 });
    const names = (await browser.context.cookies('http://127.0.0.1/')).map((c) => c.name).sort();
    expect(names).toEqual([`brick_work_token_${a.port}`, `brick_work_token_${b.port}`].sort());

    // A restarts on the same port, with a new token: the URL it prints opens the page, and the page's
    // calls work, although Chromium still holds (and sends) the old start's cookie of the same name.
    await a.close();
    const again = await host({ port: a.port });
    expect((await pageA.goto(again.url))?.status()).toBe(200);
    expect(await pageA.title()).toBe('brick-work');
    expect(await callFrom(pageA)).toMatchObject({ status: 200 });
    expect(await callFrom(pageB)).toMatchObject({ status: 200 });

    // A body past the limit gets the host's plain answer, not a broken connection.
    const tooBig = await callFrom(pageB, BODY_LIMIT + 1);
    expect(tooBig.status).toBe(413);
    expect(tooBig.text).toMatch(/^brick-work: .*over the 64 MB/);
    expect(await callFrom(pageB)).toMatchObject({ status: 200 });
    expect([...a.logs, ...b.logs, ...again.logs]).toEqual([]);
  });
});
