/**
 * Pictures through the browser host (issue 48, SPEC §15): a real host process over a store whose picture
 * server is a stand-in on loopback. A picture not kept is answered at once (waiting), fetched meanwhile,
 * told by `pictures.ready` on the event stream, then answered with its bytes; the host answers other calls
 * while its picture server is slow; the settings turn network pictures off. A brick-work store sitting at
 * the picture cache's path is left as it is (issue 62 §4): pictures come from memory, and the status says so.
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { decodeWire, encodeWire } from '../../src/api/wire.ts';
import { SYSTEM_CLOCK } from '../../src/platform/clock.ts';
import { loadCatalogue } from '../../src/catalogue/load.ts';
import { identityOf } from '../../src/identity/owner.ts';
import { openStore } from '../../src/store/open.ts';
import { setSetting } from '../../src/store/settings.ts';
import { startHost } from '../helpers/browser.ts';
import { bytes, files } from '../helpers/catalogue-files.ts';
import { sha256 } from '../helpers/temp.ts';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** A body that is a PNG by its bytes (its signature), then words a test reads back (`words`). */
const pic = (words: string) => Buffer.concat([PNG_SIGNATURE, Buffer.from(words)]);
const words = (bytes: Uint8Array) => new TextDecoder().decode(bytes.subarray(PNG_SIGNATURE.length));

describe('pictures through the browser host', () => {
  const asked: string[] = [];
  let slowMs = 0;
  const pictures = http.createServer((req, res) => {
    asked.push(req.url ?? '');
    setTimeout(() => {
      if (req.url === '/ItemImage/PN/5/3001.png')
        res.writeHead(200, { 'Content-Type': 'image/png' }).end(pic('red 3001'));
      else if (req.url === '/ItemImage/PN/0/3001.png')
        res.writeHead(200, { 'Content-Type': 'image/png' }).end(pic('usual 3001'));
      else res.writeHead(404).end();
    }, slowMs);
  });
  let base = '';
  let store = '';
  let dir = '';
  /** A store whose picture cache's path holds a brick-work store (a copy of `store`). */
  let shop = '';
  beforeAll(async () => {
    base = await new Promise<string>((resolve) =>
      pictures.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(pictures.address() as AddressInfo).port}`)),
    );
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'brick-work-pictures-'));
    store = path.join(dir, 'brick-work.sqlite');
    const s = await openStore(store);
    await loadCatalogue(
      s.db,
      store,
      [
        {
          name: 'items.xml',
          content: bytes(files.bricklinkItemsXml([{ type: 'P', no: '3001', name: 'Brick 2 x 4' }])),
        },
        { name: 'colors.xml', content: bytes(files.bricklinkColoursXml([{ id: 5, name: 'Red' }])) },
      ],
      { type: 'P', me: identityOf(), clock: SYSTEM_CLOCK },
    );
    setSetting(s.db, 'picture-url', base);
    s.close();
    fs.mkdirSync(path.join(dir, 'shop'));
    shop = path.join(dir, 'shop', 'shop.sqlite');
    for (const to of [shop, path.join(dir, 'shop', 'shop.pictures.sqlite')]) fs.copyFileSync(store, to);
  });
  afterAll(() => {
    fs.rmSync(dir, { recursive: true, force: true });
    pictures.closeAllConnections();
    pictures.close();
  });

  async function started(at = store) {
    const { url, child } = await startHost(at);
    onTestFinished(() => void child.kill('SIGTERM'));
    const origin = new URL(url).origin;
    const token = /token=([\w-]+)/.exec(url)?.[1] ?? '';
    const call = async (name: string, args: unknown) => {
      const r = await fetch(`${origin}/api/call/${name}`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: encodeWire(args),
      });
      return decodeWire(await r.text()) as { ok: boolean; value: any };
    };
    const events: string[] = [];
    const stream = await fetch(`${origin}/api/events`, { headers: { Authorization: `Bearer ${token}` } });
    const reader = stream.body!.pipeThrough(new TextDecoderStream()).getReader();
    void (async () => {
      for (;;) {
        const { value, done } = await reader.read().catch(() => ({ value: '', done: true }));
        if (done) return;
        for (const m of value.matchAll(/^event: (.*)$/gm)) events.push(m[1] ?? '');
      }
    })();
    onTestFinished(() => void reader.cancel().catch(() => undefined));
    return { call, events };
  }

  const until = async (ok: () => boolean | Promise<boolean>, ms = 10_000) => {
    const end = Date.now() + ms;
    while (!(await ok())) {
      if (Date.now() > end) throw new Error('not in time');
      await new Promise((r) => setTimeout(r, 25));
    }
  };

  it('waiting at once, told when it came, then its bytes; a missing picture and an unknown item say why', async () => {
    const { call, events } = await started();
    const items = [
      { type: 'P', no: '3001', colour: 5 },
      { type: 'P', no: '3001', colour: 11 },
      { type: 'P', no: 'nowhere', colour: 5 },
    ];
    const first = await call('pictures.get', { items });
    expect(first.ok).toBe(true);
    expect(first.value.pictures[0]).toEqual({ state: 'waiting' });
    expect(first.value.pictures[2]).toMatchObject({ state: 'none', why: expect.stringContaining('BrickLink number') });
    await until(() => events.includes('pictures.ready'));
    await until(async () => (await call('pictures.get', { items })).value.pictures[1].state === 'ready');
    const again = await call('pictures.get', { items });
    expect(again.value.pictures[0]).toMatchObject({
      state: 'ready',
      type: 'image/png',
      from: 'bricklink',
      inColour: true,
    });
    expect(words(again.value.pictures[0].bytes)).toBe('red 3001');
    // None in colour 11 on the server: the item's usual picture, said to be not in that colour.
    expect(again.value.pictures[1]).toMatchObject({ state: 'ready', from: 'bricklink', inColour: false });
    expect(words(again.value.pictures[1].bytes)).toBe('usual 3001');
    expect((await call('pictures.status', {})).value).toMatchObject({
      network: true,
      fetched: 3,
      failed: 0,
      refused: 0,
      cached: 2,
      missing: 1,
      inMemory: null,
    });
    // Kept: a second look asks the server nothing.
    const before = asked.length;
    await call('pictures.get', { items });
    expect(asked.length).toBe(before);
  });

  it('a slow picture server (5 s) delays no call; network pictures off answer from the cache only', async () => {
    const { call } = await started();
    slowMs = 5_000;
    onTestFinished(() => {
      slowMs = 0;
    });
    const items = Array.from({ length: 200 }, (_, i) => ({ type: 'P', no: '3001', colour: 100 + i }));
    let slowest = 0;
    for (let round = 0; round < 5; round++) {
      for (const [name, args] of [
        ['pictures.get', { items }],
        ['orders.list', {}],
        ['settings.get', {}],
      ] as const) {
        const t = performance.now();
        expect((await call(name, args)).ok).toBe(true);
        slowest = Math.max(slowest, performance.now() - t);
      }
    }
    expect(slowest).toBeLessThan(1_000);
    expect((await call('settings.set', { key: 'pictures', value: 'off' })).ok).toBe(true);
    const off = await call('pictures.get', { items: [{ type: 'P', no: '3001', colour: 777 }] });
    expect(off.value.pictures[0]).toEqual({
      state: 'none',
      why: 'network pictures are off (Settings), and none is kept',
    });
    const kept = await call('pictures.get', { items: [{ type: 'P', no: '3001', colour: 5 }] });
    expect(kept.value.pictures[0]).toMatchObject({ state: 'ready' });
    expect((await call('settings.set', { key: 'pictures', value: 'on' })).ok).toBe(true);
  });

  it("a brick-work store at the picture cache's path is left as it is: pictures come from memory, the status says why", async () => {
    const cachePath = path.join(dir, 'shop', 'shop.pictures.sqlite');
    const hash = sha256(cachePath);
    const { call, events } = await started(shop);
    const items = [{ type: 'P', no: '3001', colour: 5 }];
    expect((await call('pictures.get', { items })).value.pictures[0]).toEqual({ state: 'waiting' });
    await until(() => events.includes('pictures.ready'));
    const got = await call('pictures.get', { items });
    expect(got.value.pictures[0]).toMatchObject({ state: 'ready', type: 'image/png' });
    expect(words(got.value.pictures[0].bytes)).toBe('red 3001');
    // Byte for byte as it was; no -wal, -shm or .bad beside it.
    expect(fs.readdirSync(path.dirname(cachePath)).filter((f) => f.startsWith('shop.pictures'))).toEqual([
      'shop.pictures.sqlite',
    ]);
    expect(sha256(cachePath)).toBe(hash);
    expect((await call('pictures.status', {})).value).toMatchObject({
      fetched: 1,
      cached: 1,
      inMemory: `${cachePath} is not a picture cache, left as it is`,
    });
  });
});
