import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { CALL_NAMES, type CallName } from '../../src/api/contract.ts';
import { configureApp, startApp } from '../../electron/app.ts';
import { CALL_CHANNEL, EVENT_CHANNEL } from '../../electron/channels.ts';
import { REPO_ROOT } from '../helpers/cli.ts';
import { bsx } from '../helpers/documents.ts';
import { tempDir } from '../helpers/temp.ts';
import { fakeElectron } from './fake-electron.ts';

const WORKER = new URL('../../src/app/runner-thread.ts', import.meta.url);
let closeCore: (() => Promise<void>) | null = null;
afterEach(async () => {
  await closeCore?.();
  closeCore = null;
});

async function startFakeApp() {
  const dir = tempDir();
  const userData = path.join(dir, 'userData');
  fs.mkdirSync(userData);
  const doc = path.join(dir, 'Market Street.bsx');
  fs.writeFileSync(
    doc,
    bsx([
      { no: '3001', name: 'Brick 2 x 4', qty: 2 },
      { no: '9999', name: 'Brick 2 x 2', qty: 1 },
    ]),
  );
  const fake = fakeElectron({ userData, appPath: dir, pick: doc, saveTo: path.join(dir, 'summary.csv') });
  configureApp(fake.electron);
  const rendererIndex = path.join(REPO_ROOT, 'renderer', 'index.html');
  const { core } = await startApp(
    fake.electron,
    { rendererIndex, preload: path.join(dir, 'preload.cjs'), workerUrl: WORKER },
    () => {},
  );
  closeCore = () => core.close();
  const pageUrl = pathToFileURL(rendererIndex).href;
  const handler = fake.handlers.get(CALL_CHANNEL);
  if (!handler) throw new Error('no IPC handler');
  const ownEvent = { sender: fake.webContents, senderFrame: fake.webContents.mainFrame };
  const invoke = (name: string, args: unknown, event: unknown = ownEvent) => handler(event, name, args) as Promise<any>;
  return { fake, dir, userData, pageUrl, invoke, doc };
}

describe('the Electron main process (electron mocked)', () => {
  it('names the app brick-work (so its user-data folder is the CLI’s) and sandboxes every page', () => {
    const fake = fakeElectron({ userData: '/x', appPath: '/x' });
    configureApp(fake.electron);
    expect(fake.app.setName).toHaveBeenCalledWith('brick-work');
    expect(fake.app.enableSandbox).toHaveBeenCalled();
  });

  it('opens a window that is isolated, sandboxed, without Node, and cannot navigate away or open windows', async () => {
    const { fake, pageUrl } = await startFakeApp();
    const prefs = fake.windows[0].options.webPreferences;
    expect(prefs).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      webSecurity: true,
      webviewTag: false,
    });
    expect(fake.windows[0].loadFile).toHaveBeenCalledWith(path.join(REPO_ROOT, 'renderer', 'index.html'));

    let prevented = false;
    fake.contentsEvents.get('will-navigate')?.({ preventDefault: () => (prevented = true) }, 'https://example.com/');
    expect(prevented).toBe(true);
    expect(fake.windowOpen()?.({ url: 'https://example.com/' })).toEqual({ action: 'deny' });
    const decide = (url: string) => {
      let answer: unknown;
      fake.beforeRequest()?.({ url }, (r: unknown) => (answer = r));
      return answer;
    };
    expect(decide('https://evil.example/x.js')).toEqual({ cancel: true });
    expect(decide(`${pageUrl}`)).toEqual({ cancel: false });
    let granted: boolean | undefined;
    fake.permission()?.({}, 'media', (ok: boolean) => (granted = ok));
    expect(granted).toBe(false);
    const html = fs.readFileSync(path.join(REPO_ROOT, 'renderer', 'index.html'), 'utf8');
    expect(html).toMatch(/http-equiv="Content-Security-Policy"\s+content="default-src 'self'; script-src 'self'/);
  });

  it('wires every call of the contract through IPC to the core', async () => {
    const { invoke, fake, dir } = await startFakeApp();
    const file = {
      name: 'Market Street.bsx',
      content: new Uint8Array(fs.readFileSync(path.join(dir, 'Market Street.bsx'))),
    };
    const catalogue = {
      name: 'parts.csv',
      content: new TextEncoder().encode('part_num,name,part_cat_id\n3001,Brick 2 x 4,11\n'),
    };
    // In an order that builds state for the calls after it; each must reach the core (a domain answer, never "invalid").
    const calls: [CallName, unknown, (r: any) => void][] = [
      ['store.info', {}, (r) => expect(r.value).toMatchObject({ schema: '4.2', appVersion: '0.9.0' })],
      [
        'settings.get',
        {},
        (r) => expect(r.value).toMatchObject({ currency: 'USD', credentialsStored: false, credentialsEncrypted: true }),
      ],
      ['settings.set', { key: 'currency', value: 'eur' }, (r) => expect(r.value.currency).toBe('EUR')],
      ['file.pick', { purpose: 'document' }, (r) => expect(r.value).toMatchObject({ name: 'Market Street.bsx' })],
      [
        'import.preview',
        { file },
        (r) => expect(r.value.documents[0].counts).toEqual({ total: 2, placed: 0, unplaced: 2 }),
      ],
      [
        'import.confirm',
        { file },
        (r) => expect(r.value[0]).toMatchObject({ document: { key: 'Market Street.bsx' }, revived: false }),
      ],
      ['import.cancel', {}, (r) => expect(r.value).toEqual({ cancelled: false })],
      [
        'import.previewLines',
        { previewId: 'gone', document: 0, from: 0, count: 10 },
        (r) => expect(r.error).toMatchObject({ code: 'not-found' }),
      ],
      ['orders.list', {}, (r) => expect(r.value).toHaveLength(1)],
      ['orders.get', { orderId: 1 }, (r) => expect(r.value.documents).toHaveLength(1)],
      [
        'compare.run',
        { left: { kind: 'order', orderId: 1 }, right: { kind: 'document', documentId: 1 } },
        // An order against its one document: every row the same on both sides, nothing only on one.
        (r) => {
          expect(r.value).toMatchObject({ onlyLeft: [], onlyRight: [], quantityDiffers: [] });
          expect(r.value.unplaced.length + r.value.same.length).toBeGreaterThan(0);
          for (const row of [...r.value.unplaced, ...r.value.same]) expect(row.left).toBe(row.right);
        },
      ],
      [
        'compare.rows',
        { compareId: 'gone', group: 'same', from: 0, count: 10 },
        (r) => expect(r.error).toMatchObject({ code: 'not-found' }),
      ],
      [
        'compare.export',
        { compareId: 'gone', as: 'wanted' },
        (r) => expect(r.error).toMatchObject({ code: 'not-found' }),
      ],
      ['lines.list', { orderId: 1 }, (r) => expect(r.value).toHaveLength(2)],
      [
        'documents.list',
        { orderId: 1 },
        (r) => expect(r.value).toMatchObject([{ id: 1, key: 'Market Street.bsx', state: 'imported' }]),
      ],
      ['documents.takeBack', { documentId: 99 }, (r) => expect(r.error).toMatchObject({ code: 'not-found' })],
      ['catalogue.status', {}, (r) => expect(r.value).toMatchObject({ items: 0, budget: { limit: 5000 } })],
      ['catalogue.load', { files: [catalogue] }, (r) => expect(r.value).toEqual({ started: true })],
      ['catalogue.cancel', {}, (r) => expect(r.ok).toBe(true)],
      ['catalogue.search', { query: 'brick' }, (r) => expect(r.ok).toBe(true)],
      ['lines.get', { lineId: 2 }, (r) => expect(r.value).toMatchObject({ id: 2 })],
      ['lines.suggest', { lineId: 2 }, (r) => expect(r.ok).toBe(true)],
      [
        'lines.place',
        { lineId: 2, type: 'P', no: '4242', colourId: null },
        (r) => expect(r.error).toMatchObject({ code: 'not-found' }),
      ],
      ['placements.list', {}, (r) => expect(r.value).toEqual({ items: [], colours: [], names: [] })],
      ['placements.forget', { kind: 'item', id: 1 }, (r) => expect(r.error).toMatchObject({ code: 'not-found' })],
      ['catalogue.colours', {}, (r) => expect(r.value).toEqual([])],
      ['lookup.start', {}, (r) => expect(r.error).toMatchObject({ code: 'no-credentials' })],
      [
        'settings.setCredentials',
        { consumerKey: 'ck', consumerSecret: 'cs-secret', token: 't', tokenSecret: 'ts-secret' },
        (r) => expect(r.value.credentialsStored).toBe(true),
      ],
      ['jobs.list', {}, (r) => expect(Array.isArray(r.value)).toBe(true)],
      ['jobs.cancel', { jobId: 99 }, (r) => expect(r.error).toMatchObject({ code: 'not-found' })],
      ['history.state', {}, (r) => expect(r.value.undo).toMatchObject({ kind: 'import' })],
      ['history.list', {}, (r) => expect(r.value.steps[0]).toMatchObject({ kind: 'import', state: 'done' })],
      // Pictures (issue 48): an item the catalogue has no BrickLink number for says why, at once.
      [
        'pictures.get',
        { items: [{ type: 'P', no: 'nowhere', colour: null }] },
        (r) => expect(r.value.pictures[0]).toMatchObject({ state: 'none' }),
      ],
      ['pictures.status', {}, (r) => expect(r.value).toMatchObject({ network: true, fetched: 0 })],
      ['pictures.clear', {}, (r) => expect(r.value).toMatchObject({ cached: 0 })],
      ['desk.get', {}, (r) => expect(r.value).toMatchObject({ canChange: true })],
      // Settings → This desk: kept in the user-data folder, never in the store (SPEC §8).
      [
        'desk.set',
        { name: 'Counter 2' },
        (r) => {
          expect(r.value).toMatchObject({ name: 'Counter 2', canChange: true });
          expect(JSON.parse(fs.readFileSync(path.join(dir, 'userData', 'desk.json'), 'utf8'))).toEqual({
            name: 'Counter 2',
          });
        },
      ],
      // Back to the computer's name: the steps so far, made under it, are this desk's again.
      [
        'desk.set',
        { name: null },
        (r) => {
          expect(r.value.name).toBe(r.value.computer);
          expect(fs.existsSync(path.join(dir, 'userData', 'desk.json'))).toBe(false);
        },
      ],
      [
        'export.summary',
        {},
        (r) =>
          expect(r.value).toMatchObject({ name: 'brick-work-summary.csv', savedTo: path.join(dir, 'summary.csv') }),
      ],
      ['export.bricklink', { orderId: 1 }, (r) => expect(r.value.savedTo).toBe(path.join(dir, 'summary.csv'))],
      ['export.rebrickable', { orderId: 1 }, (r) => expect(r.value.savedTo).toBe(path.join(dir, 'summary.csv'))],
      [
        'export.preview',
        { orderId: 1, to: 'bricklink' },
        (r) => expect(r.value).toMatchObject({ target: 'bricklink', needs: null }),
      ],
      ['history.undo', { expectedStep: 1 }, (r) => expect(r.value).toMatchObject({ id: 1, kind: 'import' })],
      ['history.redo', { expectedStep: 1 }, (r) => expect(r.value).toMatchObject({ id: 1, kind: 'import' })],
      [
        'shopServer.get',
        {},
        (r) =>
          expect(r.value).toMatchObject({ inUse: { kind: 'file' }, chosen: null, canChoose: true, encrypted: true }),
      ],
      [
        // Nothing listens on port 1: checked before it is kept, so it is refused in words and not kept.
        'shopServer.choose',
        { host: '127.0.0.1', port: 1, database: 'shop', user: 'desk', password: 'pw-secret' },
        (r) => expect(r.error).toMatchObject({ code: 'store-unreachable' }),
      ],
      ['shopServer.forget', {}, (r) => expect(r.value).toMatchObject({ chosen: null })],
      ['stock.info', {}, (r) => expect(r.value).toBeNull()],
      // No stock yet: every pick call says so (SPEC §16).
      ['pick.list', { orderId: 1 }, (r) => expect(r.error).toMatchObject({ code: 'no-stock' })],
      ['pick.mark', { orderId: 1, key: '2:9', picked: 1 }, (r) => expect(r.error).toMatchObject({ code: 'no-stock' })],
      ['pick.unmark', { orderId: 1, key: '2:9' }, (r) => expect(r.error).toMatchObject({ code: 'no-stock' })],
      [
        'pick.printable',
        { orderId: 1, paper: 'a4', orientation: 'portrait', pictures: false },
        (r) => expect(r.error).toMatchObject({ code: 'no-stock' }),
      ],
      ['pick.file', { orderId: 1, as: 'csv' }, (r) => expect(r.error).toMatchObject({ code: 'no-stock' })],
      [
        'stock.preview',
        { file, locationFrom: 'remarks' },
        (r) => expect(r.value.stock).toMatchObject({ locationFrom: 'remarks', replaces: null }),
      ],
      ['stock.import', { file }, (r) => expect(r.value.stock).toMatchObject({ lots: 2 })],
      // Issue 65 put-away: the order against the stock (made of the same file), every line accounted for
      // whether the catalogue load has placed them yet or not; its files, never sent.
      [
        'putAway.list',
        { orderId: 1, locations: { '1': 'A1' } },
        (r) => {
          expect(r.value).toMatchObject({ order: { id: 1 }, stock: { lots: 2 } });
          expect(r.value.entries.length + r.value.unplaced.length + r.value.nothingReceived.length).toBe(2);
        },
      ],
      ['putAway.export', { orderId: 1 }, (r) => expect(r.value.note).toContain('Nothing is sent to BrickLink')],
      // The pick list on paper goes through the app's own printing: a hidden window of its own, then closed.
      [
        'pick.printable',
        { orderId: 1, paper: 'letter', orientation: 'landscape', pictures: true },
        (r) => {
          expect(r.value).toEqual({ name: 'pick list Market Street.html', html: '', printed: 'printed' });
          expect(fake.printed.map((p) => p.options)).toEqual([
            { silent: false, printBackground: true, landscape: true, pageSize: 'Letter' },
          ]);
          expect(fake.printed[0]?.html).toContain('Pick list: order Market Street.bsx');
          const printWindow = fake.windows.at(-1);
          expect(printWindow).not.toBe(fake.windows[0]);
          expect(printWindow.options.show).toBe(false);
          expect(printWindow.isDestroyed()).toBe(true);
        },
      ],
      // The pick list as CSV goes through the app's save dialog, as every export does.
      ['pick.file', { orderId: 1, as: 'csv' }, (r) => expect(r.value.savedTo).toBe(path.join(dir, 'summary.csv'))],
      // No call leaves this machine: the day's budget is set to none first, so the look-up is refused before.
      ['settings.set', { key: 'daily-call-limit', value: '0' }, (r) => expect(r.ok).toBe(true)],
      ['stock.lookup', {}, (r) => expect(r.error).toMatchObject({ code: 'budget-exhausted' })],
    ];
    expect(new Set(calls.map(([n]) => n))).toEqual(new Set(CALL_NAMES));
    for (const [name, args, check] of calls) {
      const r = await invoke(name, args);
      expect(r.error?.code, `${name}: ${JSON.stringify(r.error)}`).not.toBe('invalid-argument');
      check(r);
    }
    // The credentials were stored encrypted, and never reach the screen.
    const stored = fs.readFileSync(path.join(fake.app.getPath('userData'), 'bricklink-credentials.bin'), 'utf8');
    expect(stored).not.toContain('ts-secret');
    expect(JSON.stringify(await invoke('settings.get', {}))).not.toContain('secret');
    // Writes told the window to refresh.
    expect(fake.sent.some(([channel, name]) => channel === EVENT_CHANNEL && name === 'store.changed')).toBe(true);
    // The Edit menu names what Undo will take back.
    const edit = fake.menus.at(-1).find((m: { label: string }) => m.label === 'Edit');
    expect(edit.submenu[0]).toMatchObject({
      label: 'Undo Import of the stock from Market Street.bsx',
      accelerator: 'CmdOrCtrl+Z',
      enabled: true,
    });
    expect(edit.submenu[1]).toMatchObject({ accelerator: 'Shift+CmdOrCtrl+Z' });
  });

  it('refuses invalid arguments before anything uses them', async () => {
    const { invoke } = await startFakeApp();
    const bad: [string, unknown][] = [
      ['orders.get', { orderId: '1' }],
      ['orders.get', { orderId: -4 }],
      ['lines.place', { lineId: 1, type: 'P', no: '3001' }],
      ['lines.place', { lineId: 1, type: 'P', no: '3001', colourId: null, path: '/etc/passwd' }],
      ['import.confirm', { file: { name: 'a.bsx', content: 'not bytes' } }],
      ['import.confirm', { file: { name: 'a.bsx', content: new Uint8Array(1), path: '/tmp/a.bsx' } }],
      ['settings.set', { key: 'db-path', value: '/tmp/x' }],
      ['catalogue.load', { files: [] }],
      ['no.such.call', {}],
      ['history.undo', null],
      ['history.undo', 'x'],
      ['history.undo', {}],
      ['history.redo', { expectedStep: '1' }],
      ['placements.forget', { kind: 'everything', id: 1 }],
    ];
    for (const [name, args] of bad) {
      const r = await invoke(name, args);
      expect(r, `${name} ${JSON.stringify(args)}`).toMatchObject({ ok: false, error: { code: 'invalid-argument' } });
      expect(r.error.message).toMatch(/^Not a valid request: /);
    }
  });

  it("gives no answer to another frame's messages", async () => {
    const { invoke, fake, pageUrl } = await startFakeApp();
    const strangers = [
      { sender: fake.webContents, senderFrame: { url: pageUrl } }, // an iframe of the page
      { sender: fake.webContents, senderFrame: { url: 'https://evil.example/' } },
      { sender: { other: true }, senderFrame: fake.webContents.mainFrame }, // another window
      { sender: fake.webContents, senderFrame: null },
    ];
    for (const event of strangers) {
      const answer = invoke('settings.set', { key: 'currency', value: 'GBP' }, event);
      const settled = await Promise.race([
        answer.then(() => 'answered'),
        new Promise((r) => setTimeout(() => r('no answer'), 100)),
      ]);
      expect(settled).toBe('no answer');
    }
    const r = await invoke('settings.get', {});
    expect(r.value.currency).toBe('USD');
  });

  it("prints nothing a frame that is not the app's asks for", async () => {
    const { invoke, fake, pageUrl, doc } = await startFakeApp();
    const file = { name: 'Market Street.bsx', content: new Uint8Array(fs.readFileSync(doc)) };
    expect((await invoke('import.confirm', { file })).ok).toBe(true);
    expect((await invoke('stock.import', { file })).ok).toBe(true);
    const args = { orderId: 1, paper: 'a4', orientation: 'portrait', pictures: false };
    const strangers = [
      { sender: fake.webContents, senderFrame: { url: pageUrl } }, // an iframe of the page
      { sender: { other: true }, senderFrame: fake.webContents.mainFrame }, // another window
    ];
    for (const event of strangers) {
      const settled = await Promise.race([
        invoke('pick.printable', args, event).then(() => 'answered'),
        new Promise((r) => setTimeout(() => r('no answer'), 100)),
      ]);
      expect(settled).toBe('no answer');
    }
    expect(fake.windows).toHaveLength(1);
    expect(fake.printed).toEqual([]);
    // The app's own window is answered, and printed for.
    expect((await invoke('pick.printable', args)).value).toMatchObject({ printed: 'printed' });
    expect(fake.printed).toHaveLength(1);
  });
});
