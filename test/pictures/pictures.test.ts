/**
 * Pictures of parts (issue 48, SPEC §15): where each item's picture is had, the cache beside the store,
 * and the fetcher — against a picture server stand-in on 127.0.0.1 serving BrickLink's and Rebrickable's
 * address patterns.
 */
import Database from 'better-sqlite3';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { SYSTEM_CLOCK } from '../../src/platform/clock.ts';
import { loadCatalogue } from '../../src/catalogue/load.ts';
import { identityOf } from '../../src/identity/owner.ts';
import { pictureKey, pictureSources, type PictureBases } from '../../src/pictures/address.ts';
import { PictureFetcher } from '../../src/pictures/fetcher.ts';
import { startPictures } from '../../src/pictures/service.ts';
import { setSetting } from '../../src/store/settings.ts';
import { PictureCache, pictureCacheFile } from '../../src/store/picture-cache.ts';
import { openStore } from '../../src/store/open.ts';
import { bytes, files, TABLES } from '../helpers/catalogue-files.ts';
import { serviceFor } from '../helpers/service.ts';
import { sha256, tempDir } from '../helpers/temp.ts';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** A body that is a PNG by its bytes (its signature), then words a test reads back (`words`). */
const pic = (words: string) => Buffer.concat([PNG_SIGNATURE, Buffer.from(words)]);
const words = (bytes: Uint8Array) => new TextDecoder().decode(bytes.subarray(PNG_SIGNATURE.length));

/** An answer of the stand-in's own making (a redirect, a type that lies). */
type Answer = (res: http.ServerResponse) => void;

/**
 * A picture server on loopback: each known address answers its own bytes (as `image/png`), or its own
 * answer, after `delayMs`.
 */
function standIn(pictures: Record<string, Buffer | Answer>) {
  const asked: string[] = [];
  let open = 0;
  let most = 0;
  let delayMs = 0;
  const server = http.createServer((req, res) => {
    asked.push(req.url ?? '');
    open += 1;
    most = Math.max(most, open);
    setTimeout(() => {
      open -= 1;
      const body = pictures[req.url ?? ''];
      if (req.headers.cookie !== undefined) res.writeHead(400).end('a cookie was sent');
      else if (body === undefined) res.writeHead(404).end();
      else if (typeof body === 'function') body(res);
      else res.writeHead(200, { 'Content-Type': 'image/png' }).end(body);
    }, delayMs);
  });
  return {
    asked,
    most: () => most,
    slow: (ms: number) => (delayMs = ms),
    start: () =>
      new Promise<string>((resolve) =>
        server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
      ),
    stop: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

const until = async (ok: () => boolean, ms = 5_000) => {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error('not in time');
    await new Promise((r) => setTimeout(r, 10));
  }
};

/** A cache at a file of the test's and its fetcher, in this thread. */
const made = (
  o: { network?: () => boolean; now?: () => number; timeoutMs?: number; cap?: number; file?: string } = {},
) => {
  const file = o.file ?? path.join(tempDir(), 'brick-work.sqlite.pictures');
  const cache = PictureCache.open(file, o.cap ?? 500_000_000);
  const ready: string[] = [];
  const fetcher = new PictureFetcher({
    cache,
    network: o.network ?? (() => true),
    maxAgeDays: () => 90,
    onReady: (url) => ready.push(url),
    ...(o.now ? { now: o.now } : {}),
    ...(o.timeoutMs ? { timeoutMs: o.timeoutMs } : {}),
  });
  onTestFinished(() => {
    fetcher.stop();
    cache.close();
  });
  return { cache, fetcher, ready, file };
};
const text = (a: ReturnType<PictureFetcher['answer']>) => (a.state === 'ready' ? words(a.bytes) : a.state);

describe('where a picture is had', () => {
  it("BrickLink's by the item's BrickLink number in its colour; else Rebrickable's LDraw render; else none, saying why", async () => {
    const location = path.join(tempDir(), 'brick-work.sqlite');
    const store = await openStore(location);
    onTestFinished(() => store.close());
    await loadCatalogue(
      store.db,
      location,
      [
        {
          name: 'parts.csv',
          content: bytes(
            files.rebrickableParts([
              { no: '6141', name: 'Plate Round 1 x 1' },
              { no: '77777', name: 'Only LDraw knows it' },
              { no: '88888', name: 'Nobody knows it' },
            ]),
          ),
        },
        { name: 'colours.json', content: bytes(TABLES.colourTable) },
        {
          name: 'crossrefs.ron',
          content: bytes(
            files.partCrossrefs([
              { rebrickable: '6141', bricklink: ['4073'] },
              { rebrickable: '77777', ldraw: '77777a', bricklink: [] },
            ]),
          ),
        },
      ],
      { type: 'P', me: identityOf(), clock: SYSTEM_CLOCK },
    );
    await loadCatalogue(
      store.db,
      location,
      [{ name: 'Sets.xml', content: bytes(files.bricklinkItemsXml([{ type: 'S', no: '75192-1', name: 'Falcon' }])) }],
      { type: 'S', me: identityOf(), clock: SYSTEM_CLOCK },
    );
    const bases: PictureBases = { bricklink: 'http://bl.test/', rebrickable: 'http://rb.test' };
    const items = [
      { type: 'P', no: '6141', colour: 88 },
      { type: 'P', no: '6141', colour: null },
      { type: 'P', no: '77777', colour: 88 },
      { type: 'P', no: '77777', colour: 12345 },
      { type: 'P', no: '88888', colour: 5 },
      { type: 'S', no: '75192-1', colour: 5 },
    ];
    const found = pictureSources(store.db, items, bases);
    const at = (i: number) => found.get(pictureKey(items[i] ?? items[0]!));
    expect(at(0)).toEqual({
      url: 'http://bl.test/ItemImage/PN/88/4073.png',
      from: 'bricklink',
      inColour: true,
      // Shown where the server has none in that colour.
      usual: 'http://bl.test/ItemImage/PN/0/4073.png',
    });
    expect(at(1)).toEqual({ url: 'http://bl.test/ItemImage/PN/0/4073.png', from: 'bricklink', inColour: true });
    // No BrickLink number: Rebrickable's render of its LDraw number, in Rebrickable's id of the colour.
    expect(at(2)).toEqual({
      url: 'http://rb.test/media/parts/ldraw/70/77777a.png',
      from: 'rebrickable',
      inColour: true,
    });
    expect(at(3)).toMatchObject({ url: null, why: expect.stringContaining('no Rebrickable id') });
    expect(at(4)).toMatchObject({ url: null, why: expect.stringContaining('BrickLink number is not known') });
    // A set has no colours on BrickLink's pictures.
    expect(at(5)).toEqual({ url: 'http://bl.test/ItemImage/SN/0/75192-1.png', from: 'bricklink', inColour: false });
  });
});

describe('the picture cache and its fetcher', () => {
  const server = standIn({
    '/ItemImage/PN/88/4073.png': pic('png of 4073 in 88'),
    '/media/parts/ldraw/70/77777a.png': pic('png of 77777a in 70'),
    ...Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`/many/${i}.png`, pic(`png ${i}`)])),
  });
  let base = '';
  beforeAll(async () => {
    base = await server.start();
  });
  afterAll(() => server.stop());

  it('answers at once: waiting, then told when it came; then from the cache, never asked again; a missing one says so', async () => {
    const { fetcher, ready } = made();
    const url = `${base}/ItemImage/PN/88/4073.png`;
    const before = server.asked.length;
    expect(fetcher.answer(url)).toEqual({ state: 'waiting' });
    await until(() => ready.includes(url));
    expect(text(fetcher.answer(url))).toBe('png of 4073 in 88');
    expect(fetcher.answer(url)).toMatchObject({ type: 'image/png' });
    const missing = `${base}/ItemImage/PN/1/nothing.png`;
    fetcher.answer(missing);
    await until(() => ready.includes(missing));
    expect(fetcher.answer(missing)).toEqual({
      state: 'none',
      why: 'the picture server has no picture of it',
      missing: true,
    });
    expect(server.asked.length - before).toBe(2);
    expect(fetcher.counts()).toMatchObject({ fetched: 2, failed: 0, waiting: 0 });
  });

  it('a few at a time, the last asked first (what is on screen now); a slow server never delays an answer', async () => {
    const { fetcher, ready } = made();
    server.slow(150);
    onTestFinished(() => {
      server.slow(0);
    });
    const urls = Array.from({ length: 12 }, (_, i) => `${base}/many/${i}.png`);
    const from = server.asked.length;
    const t = performance.now();
    for (const u of urls) expect(fetcher.answer(u).state).toBe('waiting');
    expect(performance.now() - t).toBeLessThan(100);
    await until(() => ready.length === 12);
    expect(server.most()).toBeLessThanOrEqual(4);
    // The first four went at once; of the rest, the last asked went first (the next four, together).
    expect(server.asked.slice(from, from + 4).sort()).toEqual([
      '/many/0.png',
      '/many/1.png',
      '/many/2.png',
      '/many/3.png',
    ]);
    expect(server.asked.slice(from + 4, from + 8).sort()).toEqual([
      '/many/10.png',
      '/many/11.png',
      '/many/8.png',
      '/many/9.png',
    ]);
    expect(text(fetcher.answer(urls[11] ?? ''))).toBe('png 11');
    // A screenful asked at once goes from its top: the first of it first.
    const screen = Array.from({ length: 6 }, (_, i) => `${base}/screen/${i}.png`);
    const before = server.asked.length;
    fetcher.answers(screen);
    await until(() => ready.length === 18);
    expect(server.asked.slice(before, before + 4).sort()).toEqual([
      '/screen/0.png',
      '/screen/1.png',
      '/screen/2.png',
      '/screen/3.png',
    ]);
  });

  it('a server that does not answer in time: counted as failed, a placeholder saying so, not asked again at once', async () => {
    const { fetcher, ready } = made({ timeoutMs: 200 });
    server.slow(5_000);
    onTestFinished(() => {
      server.slow(0);
    });
    const url = `${base}/media/parts/ldraw/70/77777a.png`;
    const t = performance.now();
    expect(fetcher.answer(url)).toEqual({ state: 'waiting' });
    expect(performance.now() - t).toBeLessThan(50);
    await until(() => ready.includes(url));
    expect(fetcher.counts().failed).toBe(1);
    const asked = server.asked.length;
    expect(fetcher.answer(url)).toEqual({ state: 'none', why: 'the picture server could not be reached' });
    expect(server.asked.length).toBe(asked);
  });

  it('network pictures off: the cache only — what it keeps is shown, the rest a placeholder at once, nothing asked', async () => {
    const first = made();
    const url = `${base}/ItemImage/PN/88/4073.png`;
    first.fetcher.answer(url);
    await until(() => first.ready.includes(url));
    first.fetcher.stop();
    first.cache.close();
    // The next start, network off, on the same cache file.
    const asked = server.asked.length;
    const { fetcher } = made({ network: () => false, file: first.file });
    expect(text(fetcher.answer(url))).toBe('png of 4073 in 88');
    expect(fetcher.answer(`${base}/many/3.png`)).toEqual({
      state: 'none',
      why: 'network pictures are off (Settings), and none is kept',
    });
    expect(server.asked.length).toBe(asked);
  });

  it('a picture older than the days set is shown while it is fetched again', async () => {
    let now = Date.now();
    const { fetcher, ready } = made({ now: () => now });
    const url = `${base}/many/5.png`;
    fetcher.answer(url);
    await until(() => ready.length === 1);
    const asked = server.asked.length;
    now += 91 * 86_400_000;
    expect(text(fetcher.answer(url))).toBe('png 5');
    await until(() => ready.length === 2);
    expect(server.asked.length).toBe(asked + 1);
  });

  it('past its cap the cache lets the pictures shown longest ago go; clear empties it', () => {
    const file = path.join(tempDir(), 'pictures.sqlite');
    const cache = PictureCache.open(file, 3_500);
    onTestFinished(() => cache.close());
    const kb = (c: string) => ({ bytes: new Uint8Array(1_000).fill(c.charCodeAt(0)), type: 'image/png' });
    cache.put('a', kb('a'), 1);
    cache.put('b', kb('b'), 2);
    cache.put('c', kb('c'), 3);
    cache.markShown(['a'], 4); // shown: now the newest
    cache.put('d', kb('d'), 5);
    expect(cache.peek('b')).toBeNull();
    expect(['a', 'c', 'd'].map((u) => cache.peek(u) !== null)).toEqual([true, true, true]);
    expect(cache.stats()).toMatchObject({ pictures: 3, missing: 0 });
    cache.setCap(1_500);
    expect(cache.stats().pictures).toBe(1);
    cache.clear();
    expect(cache.stats()).toEqual({ pictures: 0, missing: 0, bytes: 0 });
  });
});

describe("the fetching's own thread", () => {
  it('fetches and keeps a picture while the thread that answers calls is busy, and tells it when that thread is free', async () => {
    // The stand-in in a process of its own: this thread is held busy below, so it could serve nothing.
    const child = spawn(
      process.execPath,
      [
        '-e',
        `require('node:http').createServer((q, r) => q.url === '/ItemImage/PN/88/4073.png'
           ? r.writeHead(200, { 'Content-Type': 'image/png' }).end(Buffer.from('${pic('png of 4073 in 88').toString('hex')}', 'hex'))
           : r.writeHead(404).end()).listen(0, '127.0.0.1', function () { console.log(this.address().port); });`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    onTestFinished(() => void child.kill('SIGKILL'));
    const port = await new Promise<string>((resolve) =>
      child.stdout.once('data', (d: Buffer) => resolve(d.toString().trim())),
    );
    const storePath = path.join(tempDir(), 'brick-work.sqlite');
    const store = await openStore(storePath);
    onTestFinished(() => store.close());
    setSetting(store.db, 'picture-url', `http://127.0.0.1:${port}`);
    let told = 0;
    const pictures = startPictures({
      db: store.db,
      storePath,
      onReady: () => (told += 1),
      thread: { nativeBinding: null },
    });
    onTestFinished(() => pictures.close());
    const url = `http://127.0.0.1:${port}/ItemImage/PN/88/4073.png`;
    expect(pictures.answers([url])).toEqual([{ state: 'waiting' }]);
    // This thread does nothing but look at the cache's file: a fetch on its event loop could not run.
    const reader = PictureCache.attach(pictureCacheFile(storePath), 1_000_000);
    onTestFinished(() => reader.close());
    const end = Date.now() + 10_000;
    let kept = reader.peek(url);
    while (kept === null && Date.now() < end) kept = reader.peek(url);
    expect(kept?.picture?.type).toBe('image/png');
    expect(told).toBe(0);
    await until(() => told > 0);
    const [answer] = pictures.answers([url]);
    expect(answer?.state === 'ready' && words(answer.bytes)).toBe('png of 4073 in 88');
    expect(pictures.counts()).toEqual({ fetched: 1, failed: 0, refused: 0, lastRefused: null, waiting: 0 });
  });
});

/** Pictures are pictures, from where they were asked (issue 62 §4, SPEC §11): a stand-in that lies. */
describe('a hostile picture server', () => {
  const GIF = Buffer.concat([Buffer.from('GIF89a'), Buffer.from([1, 0, 1, 0, 0, 0, 0, 0x3b])]);
  const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0, 1, 0xff, 0xd9]);
  const WEBP = Buffer.concat([Buffer.from('RIFF'), Buffer.from([4, 0, 0, 0]), Buffer.from('WEBPVP8 ')]);
  const HTML = Buffer.from('<html><script>alert("hi")</script></html>');
  const elsewhere = standIn({ '/x.png': pic('from another host') });
  let other = '';
  const server = standIn({
    '/html-as-png.png': (res) => res.writeHead(200, { 'Content-Type': 'image/png' }).end(HTML),
    '/svg.png': (res) =>
      res.writeHead(200, { 'Content-Type': 'image/svg+xml' }).end('<svg xmlns="http://www.w3.org/2000/svg"/>'),
    '/gif-as-html.png': (res) => res.writeHead(200, { 'Content-Type': 'text/html' }).end(GIF),
    '/jpeg-lying.png': (res) => res.writeHead(200, { 'Content-Type': 'image/png"><script>x</script>' }).end(JPEG),
    '/webp-untyped.png': (res) => res.writeHead(200).end(WEBP),
    '/png-as-octets.png': (res) =>
      res.writeHead(200, { 'Content-Type': 'application/octet-stream' }).end(pic('8 bits')),
    '/away.png': (res) => res.writeHead(302, { Location: `${other}/x.png` }).end(),
    '/moved.png': (res) => res.writeHead(301, { Location: '/here.png' }).end(),
    '/here.png': pic('moved here'),
    '/round.png': (res) => res.writeHead(307, { Location: '/round.png' }).end(),
  });
  let base = '';
  beforeAll(async () => {
    base = await server.start();
    other = await elsewhere.start();
  });
  afterAll(() => {
    server.stop();
    elsewhere.stop();
  });
  const NOT_A_PICTURE = 'the picture server answered with something that is not a picture';

  it('an answer is a picture by its bytes, whatever its type says: HTML sent as image/png is refused, not kept, counted', async () => {
    const { fetcher, cache, ready } = made();
    const urls = [`${base}/html-as-png.png`, `${base}/svg.png`];
    expect(fetcher.answers(urls)).toEqual([{ state: 'waiting' }, { state: 'waiting' }]);
    await until(() => urls.every((u) => ready.includes(u)));
    expect(fetcher.answers(urls)).toEqual([
      { state: 'none', why: NOT_A_PICTURE },
      { state: 'none', why: NOT_A_PICTURE },
    ]);
    expect(urls.map((u) => cache.peek(u))).toEqual([null, null]);
    expect(fetcher.counts()).toMatchObject({ fetched: 0, failed: 0, refused: 2, lastRefused: NOT_A_PICTURE });
    // What an earlier build kept as a picture without looking (HTML as image/png) is no picture either.
    const earlier = made({ network: () => false });
    earlier.cache.put(`${base}/kept-html.png`, { bytes: HTML, type: 'image/png' }, Date.now());
    expect(earlier.fetcher.answer(`${base}/kept-html.png`)).toMatchObject({ state: 'none' });
  });

  it("the type kept and answered is the picture's by its bytes, one of four, never the server's text", async () => {
    const { fetcher, file, ready } = made();
    const served = {
      [`${base}/gif-as-html.png`]: 'image/gif',
      [`${base}/jpeg-lying.png`]: 'image/jpeg',
      [`${base}/webp-untyped.png`]: 'image/webp',
      [`${base}/png-as-octets.png`]: 'image/png',
    };
    const urls = Object.keys(served);
    fetcher.answers(urls);
    await until(() => urls.every((u) => ready.includes(u)));
    expect(fetcher.answers(urls).map((a) => (a.state === 'ready' ? a.type : a.state))).toEqual([
      'image/gif',
      'image/jpeg',
      'image/webp',
      'image/png',
    ]);
    const kept = new Database(file, { readonly: true });
    onTestFinished(() => {
      kept.close();
    });
    expect(kept.prepare('SELECT url, type FROM picture ORDER BY url').all()).toEqual(
      urls.sort().map((url) => ({ url, type: served[url] })),
    );
  });

  it('a redirect is followed on the host asked only: to another host it is refused, said in the status, and that host is never asked', async () => {
    const { fetcher, cache, ready } = made();
    const away = `${base}/away.png`;
    const moved = `${base}/moved.png`;
    const round = `${base}/round.png`;
    fetcher.answers([away, moved, round]);
    await until(() => [away, moved, round].every((u) => ready.includes(u)));
    const [toAway, toMoved, toRound] = fetcher.answers([away, moved, round]);
    const host = new URL(other).host;
    const sentAway = `the picture server sent it to another host (${host}), which is not followed`;
    expect(toAway).toEqual({ state: 'none', why: sentAway });
    expect(elsewhere.asked).toEqual([]);
    expect(cache.peek(away)).toBeNull();
    // On the same host it is followed (an address of the server's own, relative).
    expect(toMoved?.state === 'ready' && words(toMoved.bytes)).toBe('moved here');
    // Round in circles on the same host: given up after a few.
    expect(toRound).toEqual({ state: 'none', why: 'the picture server sent it from address to address' });
    expect(server.asked.filter((u) => u === '/round.png').length).toBe(6);
    expect(fetcher.counts()).toMatchObject({ fetched: 1, refused: 2 });
    // The status says it: the last refusal's why, and how many.
    const lastAway = made();
    lastAway.fetcher.answer(away);
    await until(() => lastAway.ready.includes(away));
    expect(lastAway.fetcher.counts()).toMatchObject({ refused: 1, lastRefused: sentAway });
  });
});

/**
 * What sits at the picture cache's path and is not a picture cache is never touched (issue 62 §4): not
 * opened, checkpointed, renamed, nor given a -wal or -shm. Pictures then run from memory, Settings saying so.
 */
describe("the picture cache's path holding something else", () => {
  /** Each file under `dir` whose name starts with `name`, by its path, with its bytes' hash (a folder: its files). */
  const snapshot = (dir: string, name: string): Record<string, string> =>
    Object.fromEntries(
      fs
        .readdirSync(dir, { recursive: true, encoding: 'utf8' })
        .filter((f) => f.startsWith(name))
        .sort()
        .map((f) => {
          const at = path.join(dir, f);
          return [f, fs.statSync(at).isDirectory() ? 'folder' : sha256(at)];
        }),
    );

  const server = standIn({ '/ItemImage/PN/88/4073.png': pic('png of 4073 in 88') });
  let base = '';
  beforeAll(async () => {
    base = await server.start();
  });
  afterAll(() => server.stop());

  /** The app's pictures over a store at `dir/shop.sqlite`, on their own thread; the contract's status. */
  async function picturesOf(dir: string) {
    const storePath = path.join(dir, 'shop.sqlite');
    const store = await openStore(storePath);
    onTestFinished(() => store.close());
    const told: number[] = [];
    const pictures = startPictures({
      db: store.db,
      storePath,
      onReady: () => told.push(1),
      thread: { nativeBinding: null },
    });
    onTestFinished(() => pictures.close());
    const service = serviceFor(store.db, storePath, { pictures });
    const status = async () => {
      const r = await service.call('pictures.status', {});
      if (!r.ok) throw new Error(r.error.message);
      return r.value;
    };
    // Pictures still come, from memory.
    const url = `${base}/ItemImage/PN/88/4073.png`;
    expect(pictures.answers([url])).toEqual([{ state: 'waiting' }]);
    await until(() => told.length > 0);
    const [answer] = pictures.answers([url]);
    expect(answer?.state === 'ready' && words(answer.bytes)).toBe('png of 4073 in 88');
    return status();
  }

  it('a folder at its path is left as it is', async () => {
    const dir = tempDir();
    const folder = path.join(dir, 'shop.pictures.sqlite');
    fs.mkdirSync(folder);
    fs.writeFileSync(path.join(folder, 'holiday.jpg'), 'somebody’s photo');
    const before = snapshot(dir, 'shop.pictures.sqlite');
    const status = await picturesOf(dir);
    expect(snapshot(dir, 'shop.pictures.sqlite')).toEqual(before);
    expect(status.inMemory).toBe(`${folder} is a folder, left as it is`);
  });

  it('a brick-work store at its path is left as it is', async () => {
    const dir = tempDir();
    const store = path.join(tempDir(), 'brick-work.sqlite');
    (await openStore(store)).close();
    const file = path.join(dir, 'shop.pictures.sqlite');
    fs.copyFileSync(store, file);
    if (fs.existsSync(`${store}-wal`)) fs.copyFileSync(`${store}-wal`, `${file}-wal`);
    const before = snapshot(dir, 'shop.pictures.sqlite');
    const status = await picturesOf(dir);
    expect(snapshot(dir, 'shop.pictures.sqlite')).toEqual(before);
    expect(status.inMemory).toBe(`${file} is not a picture cache, left as it is`);
  });

  it("another application's SQLite file with a WAL not yet checkpointed, and a file of text, are left as they are", async () => {
    const dir = tempDir();
    const theirs = path.join(tempDir(), 'theirs.sqlite');
    const db = new Database(theirs);
    db.pragma('journal_mode = WAL');
    db.pragma('wal_autocheckpoint = 0');
    db.pragma(`application_id = ${0x12345678}`);
    db.exec("CREATE TABLE t (x); INSERT INTO t VALUES ('theirs')");
    const file = path.join(dir, 'shop.pictures.sqlite');
    // Copied while it is open: the file and a WAL that holds its last commit, as a process left them.
    fs.copyFileSync(theirs, file);
    fs.copyFileSync(`${theirs}-wal`, `${file}-wal`);
    db.close();
    const before = snapshot(dir, 'shop.pictures.sqlite');
    expect(Object.keys(before)).toEqual(['shop.pictures.sqlite', 'shop.pictures.sqlite-wal']);
    const status = await picturesOf(dir);
    expect(snapshot(dir, 'shop.pictures.sqlite')).toEqual(before);
    expect(status.inMemory).toBe(`${file} is not a picture cache, left as it is`);

    const text = tempDir();
    fs.writeFileSync(path.join(text, 'shop.pictures.sqlite'), 'somebody else’s file');
    const beforeText = snapshot(text, 'shop.pictures.sqlite');
    const textStatus = await picturesOf(text);
    expect(snapshot(text, 'shop.pictures.sqlite')).toEqual(beforeText);
    expect(textStatus.inMemory).toBe(
      `${path.join(text, 'shop.pictures.sqlite')} is not a picture cache, left as it is`,
    );
  });

  it("its own cache, the app's only: kept in its file, and said so", async () => {
    const dir = tempDir();
    expect((await picturesOf(dir)).inMemory).toBeNull();
    expect(Object.keys(snapshot(dir, 'shop.pictures.sqlite'))).toContain('shop.pictures.sqlite');
  });
});

describe('a picture cache an earlier build made', () => {
  it('its mark still in its WAL (marked last, the app stopped before a checkpoint): still the cache, opened in its file', () => {
    const theirs = path.join(tempDir(), 'earlier.pictures.sqlite');
    const db = new Database(theirs);
    db.pragma('journal_mode = WAL');
    db.pragma('wal_autocheckpoint = 0');
    db.exec(`CREATE TABLE picture (url TEXT PRIMARY KEY, type TEXT, bytes BLOB, size INTEGER NOT NULL,
               fetched_at INTEGER NOT NULL, shown_at INTEGER NOT NULL)`);
    db.prepare('INSERT INTO picture VALUES (?, ?, ?, ?, 1, 1)').run('u', 'image/png', pic('kept'), 13);
    db.pragma(`application_id = ${0x42524b50}`);
    const file = path.join(tempDir(), 'shop.pictures.sqlite');
    fs.copyFileSync(theirs, file);
    fs.copyFileSync(`${theirs}-wal`, `${file}-wal`);
    db.close();
    const cache = PictureCache.open(file, 1_000_000);
    onTestFinished(() => cache.close());
    expect(cache.file).toBe(file);
    const kept = cache.peek('u')?.picture?.bytes;
    expect(kept && words(kept)).toBe('kept');
    expect(cache.heldInMemory).toBeNull();
  });
});
