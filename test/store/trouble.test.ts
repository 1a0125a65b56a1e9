/**
 * Store trouble in words (SPEC §10, §11): a busy store, one that can't be written, a damaged one and a
 * full disk each get their own code and a plain sentence with what to do — never `internal` — and the
 * store file is left byte-for-byte as it was. Real files, real child processes, a real full disk.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it, onTestFinished } from 'vitest';
import { decodeWire, encodeWire } from '../../src/api/wire.ts';
import { BrickWorkError } from '../../src/vocabulary/errors.ts';
import { BUSY_TIMEOUT_MS, openStore } from '../../src/store/open.ts';
import { NEEDS_CHROMIUM, buildScreens, hasChromium, launchBrowser } from '../helpers/browser.ts';
import { cliJson, cliScript, finished, REPO_ROOT, type CliResult } from '../helpers/cli.ts';
import { hostArgs } from '../helpers/built.ts';
import { inventoryXml } from '../helpers/documents.ts';
import { addUnplacedLines, populate41 } from '../helpers/fixtures.ts';
import { buildStore, insertJob } from '../helpers/store-builder.ts';
import { serviceFor } from '../helpers/service.ts';
import { sha256 } from '../helpers/temp.ts';
import { lines } from '../helpers/workers.ts';
import { needs } from '../helpers/needs.ts';

const NOBODY = 65534;
const isRoot = process.getuid?.() === 0;
const mounted: string[] = [];

/**
 * A fresh folder for one test that another user can read (mkdtemp makes it 0700). At the end it
 * unmounts what the test mounted in it and makes its folders writable again, then removes it.
 */
function workDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'brick-work-trouble-'));
  fs.chmodSync(dir, 0o755);
  onTestFinished(() => {
    // A child still holding a file there would keep the disk busy: then detach it lazily.
    for (const m of mounted.splice(0)) if (spawnSync('umount', [m]).status !== 0) spawnSync('umount', ['-l', m]);
    const writable = (d: string) => {
      fs.chmodSync(d, 0o755);
      for (const e of fs.readdirSync(d, { withFileTypes: true })) if (e.isDirectory()) writable(path.join(d, e.name));
    };
    writable(dir);
    fs.rmSync(dir, { recursive: true, force: true });
  });
  return dir;
}

/** The names in a folder, sorted: to show nothing was made beside a store (no -wal, -shm, .bak, .tmp). */
function listing(dir: string): string[] {
  return fs.readdirSync(dir).sort();
}

/** A store made the ordinary way, by the CLI, holding one imported order; closed, so all in the main file. */
async function storeWithOrder(file: string): Promise<void> {
  const doc = path.join(path.dirname(file), '..', `order-${path.basename(file)}.xml`);
  fs.writeFileSync(
    doc,
    inventoryXml([
      { no: '3001', colour: 5, qty: 4 },
      { no: '3003', qty: 2 },
    ]),
  );
  const r = await cliJson(['--db', file, 'import', doc]);
  expect(r.code, r.stderr).toBe(0);
}

// ——— as another user ———————————————————————————————————————————————————————————————————————————

/**
 * Root may write any file, so `chmod` alone proves nothing when the tests run as root (they do, in
 * CI): the program under test then runs as uid/gid 65534 ("nobody") through util-linux's `setpriv`.
 * Run unprivileged already, it runs as it is.
 */
function unprivileged(command: readonly string[]): readonly string[] {
  if (!isRoot) return command;
  const setpriv = spawnSync('setpriv', ['--version']);
  if (setpriv.status !== 0) throw new Error('these tests run as root and need setpriv (util-linux) to drop privileges');
  return ['setpriv', `--reuid=${NOBODY}`, `--regid=${NOBODY}`, '--clear-groups', ...command];
}

function spawnUnprivileged(command: readonly string[], env: NodeJS.ProcessEnv = {}): ChildProcess {
  const [program, ...args] = unprivileged(command);
  return spawn(program ?? '', args, {
    cwd: REPO_ROOT,
    env: { ...process.env, BRICK_WORK_DB: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** The real CLI with `--json`, as the unprivileged user. */
async function cliAsNobody(args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<CliResult & { json: any }> {
  const r = await finished(spawnUnprivileged([process.execPath, cliScript(), '--json', ...args], env));
  try {
    return { ...r, json: JSON.parse(r.stdout) };
  } catch {
    throw new Error(`stdout is not one JSON document (exit ${r.code}):\n${r.stdout}\nstderr:\n${r.stderr}`);
  }
}

/** Leaves the latest commit only in the store's -wal, as a process that stopped without closing does; no -shm. */
function commitOnlyToWal(file: string, reference: string): void {
  const script = `
    const Database = require('better-sqlite3');
    const db = new Database(process.argv[1]);
    db.pragma('wal_autocheckpoint = 0');
    db.prepare("INSERT INTO shop_order (reference, currency, created_at) VALUES (?, 'USD', '2026-01-01T00:00:00.000Z')").run(process.argv[2]);
    process.exit(0); // no close: no checkpoint, the commit stays in the -wal`;
  const r = spawnSync(process.execPath, ['-e', script, file, reference], { cwd: REPO_ROOT, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(r.stderr);
  // With no connection open the index is only a cache; without it, a reader must build it (and can't in place).
  fs.rmSync(`${file}-shm`, { force: true });
  expect(fs.statSync(`${file}-wal`).size).toBeGreaterThan(0);
}

const readOnlyMessage = (file: string, reason: string) =>
  `This store (${file}) can't be written: ${reason}. Nothing was changed; you can still look at it and export from it. ` +
  'To change it, ask whoever manages this computer to make it writable, then try again.';

/** Every read the CLI offers works; every write is refused with read-only-store. */
async function readsWorkWritesRefused(
  file: string,
  reason: string,
  env: NodeJS.ProcessEnv,
  orders: number,
): Promise<(CliResult & { json: any })[]> {
  const results: (CliResult & { json: any })[] = [];
  const info = await cliAsNobody(['--db', file, 'store', 'info'], env);
  expect(info.code, info.stderr).toBe(0);
  expect(info.json).toMatchObject({ schema: '4.2', path: file, readOnly: reason, counts: { orders } });
  const list = await cliAsNobody(['--db', file, 'orders'], env);
  expect(list.code, list.stderr).toBe(0);
  expect(list.json.orders).toHaveLength(orders);
  const lineList = await cliAsNobody(['--db', file, 'lines', '1'], env);
  expect(lineList.code, lineList.stderr).toBe(0);
  expect(lineList.json.lines).toHaveLength(2);
  const summary = await cliAsNobody(['--db', file, 'export', 'summary'], env);
  expect(summary.code, summary.stderr).toBe(0);
  expect(summary.json.content).toContain('order-');
  const xml = await cliAsNobody(['--db', file, 'export', 'bricklink', '1'], env);
  expect(xml.code, xml.stderr).toBe(0);
  expect(xml.json.content).toContain('<INVENTORY>');
  results.push(info, list, lineList, summary, xml);

  for (const write of [
    ['settings', 'currency', 'EUR'],
    ['store', 'upgrade'],
    ['import', path.join(REPO_ROOT, 'package.json')],
  ]) {
    const r = await cliAsNobody(['--db', file, ...write], env);
    expect(r.code, `${write.join(' ')}: ${r.stderr}`).toBe(1);
    expect(r.json.error).toEqual({ code: 'read-only-store', message: readOnlyMessage(file, reason) });
    expect(r.stderr).toContain(readOnlyMessage(file, reason));
    results.push(r);
  }
  return results;
}

// ——— a small disk of our own ——————————————————————————————————————————————————————————————————————

/**
 * A real full disk: a small tmpfs mounted (as root) inside the test's folder and unmounted at its end.
 * Nothing is faked: SQLite and Node meet ENOSPC from the kernel. Mounting needs root on Linux, which is
 * how the tests run here and in CI (`.ci/run`); when the mount fails there, the test fails with the
 * reason — it never passes without having filled a disk.
 */
function smallDisk(dir: string, size = '4m'): string {
  const mnt = path.join(dir, 'disk');
  fs.mkdirSync(mnt);
  const r = spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${size},mode=0755`, 'tmpfs', mnt], { encoding: 'utf8' });
  if (r.status !== 0)
    throw new Error(`could not mount a small tmpfs for the disk-full tests (they need root on Linux): ${r.stderr}`);
  mounted.push(mnt);
  return mnt;
}

/** Fills the disk at `mnt` with one file until the kernel says ENOSPC, then gives back `leave` bytes of it. */
function fillDisk(mnt: string, leave: number): () => void {
  const filler = path.join(mnt, 'filler');
  const fd = fs.openSync(filler, 'w');
  const chunk = Buffer.alloc(64 * 1024, 0x55);
  let size = 0;
  try {
    for (;;) size += fs.writeSync(fd, chunk);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOSPC') throw e;
  }
  fs.ftruncateSync(fd, Math.max(0, size - leave));
  fs.closeSync(fd);
  return () => fs.rmSync(filler);
}

const canMount = process.platform === 'linux' && isRoot;
const diskFullMessage = (what: string) =>
  `The disk is full: brick-work could not write to ${what}. Nothing was changed; free some space on that disk and try again.`;

/** A document big enough that importing it needs far more than a few hundred KB of the disk. */
function bigDocument(dir: string): string {
  const doc = path.join(dir, 'big.xml');
  fs.writeFileSync(
    doc,
    inventoryXml(
      Array.from({ length: 5000 }, (_, i) => ({
        no: `${4000 + i}`,
        colour: 5,
        qty: 3,
        remarks: `remark ${i} of a long document`,
      })),
    ),
  );
  return doc;
}

describe('a store found damaged is never written (issue 26, point 4)', () => {
  it('pages garbled inside: a write is refused with store-damaged and how to go back, the file untouched; reads that work go on', async () => {
    const dir = workDir();
    const shop = path.join(dir, 'shop');
    fs.mkdirSync(shop);
    const file = path.join(shop, 'brick-work.sqlite');
    await storeWithOrder(file);
    // Garbage over pages past the first (the header and schema still read): SQLite's check finds it.
    const bytes = fs.readFileSync(file);
    const pageSize = bytes.readUInt16BE(16);
    const pages = bytes.length / pageSize;
    for (const page of [pages - 1, pages - 2, Math.floor(pages / 2)])
      for (let i = 0; i < pageSize; i += 7) bytes[page * pageSize + i] = (i * 31) & 0xff;
    fs.writeFileSync(file, bytes);
    const before = sha256(file);
    const write = await cliJson(['--db', file, 'settings', 'currency', 'EUR']);
    expect(write.code).toBe(1);
    expect(write.json.error.code).toBe('store-damaged');
    expect(write.json.error.message).toMatch(
      /is damaged \(SQLite's check of it found: .+\), so brick-work writes nothing more to it/,
    );
    expect(write.json.error.message).toContain('brick-work.sqlite.4.1.bak');
    const imported = await cliJson(['--db', file, 'import', path.join(dir, 'order-brick-work.sqlite.xml'), '--as-new']);
    expect(imported.json.error.code).toBe('store-damaged');
    expect(sha256(file)).toBe(before);
    // Reads answer what they can, or say the store is damaged, in words; the file stays as it was.
    for (const command of [['orders'], ['store', 'info'], ['export', 'summary']]) {
      const r = await cliJson(['--db', file, ...command]);
      if (r.code !== 0) expect(r.json.error.code, command.join(' ')).toBe('store-damaged');
    }
    expect(sha256(file)).toBe(before);
  });
});

/** The bytes of a store, its WAL and its WAL index, by name: what must not change. */
function storeFiles(file: string): Record<string, string> {
  return Object.fromEntries(
    ['', '-wal', '-shm'].map((end) => [end || 'store', fs.existsSync(file + end) ? sha256(file + end) : 'none']),
  );
}

describe('a store damaged with its WAL pending is never written, nor is its WAL emptied (issue 45, point 2)', () => {
  it('the CLI’s write and the browser host’s read-only start leave the file, its -wal and its -shm byte for byte', async () => {
    const dir = workDir();
    const file = path.join(dir, 'brick-work.sqlite');
    await storeWithOrder(file);
    const probe = new Database(file, { readonly: true });
    const root = probe.prepare("SELECT rootpage FROM sqlite_master WHERE name = 'order_line'").pluck().get() as number;
    const pageSize = probe.pragma('page_size', { simple: true }) as number;
    probe.close();
    // Two updates left in the WAL by a process killed before it closed (no checkpoint ran).
    const script = `
      const Database = require('better-sqlite3');
      const db = new Database(process.argv[1]);
      db.pragma('wal_autocheckpoint = 0');
      for (const r of ['first', 'second'])
        db.prepare("INSERT INTO shop_order (reference, currency, created_at) VALUES (?, 'USD', '2026-01-01T00:00:00.000Z')").run(r);
      process.kill(process.pid, 'SIGKILL');`;
    spawnSync(process.execPath, ['-e', script, file], { cwd: REPO_ROOT });
    expect(fs.statSync(`${file}-wal`).size).toBeGreaterThan(0);
    expect(fs.existsSync(`${file}-shm`)).toBe(true);
    // Then the order lines' page is overwritten in the main file.
    const fd = fs.openSync(file, 'r+');
    fs.writeSync(fd, Buffer.alloc(pageSize, 0x5a), 0, pageSize, (root - 1) * pageSize);
    fs.closeSync(fd);
    const before = storeFiles(file);

    const write = await cliJson(['--db', file, 'settings', 'currency', 'EUR']);
    expect(write.json.error?.code).toBe('store-damaged');
    expect(storeFiles(file)).toEqual(before); // checked on a copy: not even the -shm rebuilt
    for (const command of [['orders'], ['export', 'summary']]) {
      const r = await cliJson(['--db', file, ...command]);
      if (r.code !== 0) expect(r.json.error.code, command.join(' ')).toBe('store-damaged');
    }
    // A command that only reads reads a private copy while a -wal or -shm is beside the file: SQLite's
    // first reader in place would rebuild the -shm. The file, its WAL and its -shm are as they were.
    expect(storeFiles(file)).toEqual(before);

    const host = spawn(process.execPath, [...hostArgs(), '--db', file, '--renderer', buildScreens()], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    onTestFinished(() => {
      host.kill('SIGKILL');
    });
    await lines(host).waitFor(/^open http/);
    host.kill('SIGTERM');
    await new Promise((r) => host.once('exit', r));
    expect(storeFiles(file)).toEqual(before);
  });
});

describe('store trouble in words, never "internal"', () => {
  it('store-busy: a write that waits past the busy timeout for another process’s write lock says so, and changes nothing', async () => {
    const dir = workDir();
    const file = path.join(dir, 'shop', 'brick-work.sqlite');
    fs.mkdirSync(path.dirname(file));
    await storeWithOrder(file);
    const before = sha256(file);

    // This test process is the other writer: it holds the write lock for as long as the CLI tries.
    const holder = new Database(file);
    holder.exec('BEGIN IMMEDIATE');
    const started = Date.now();
    let r: CliResult & { json: any };
    try {
      r = await cliJson(['--db', file, 'settings', 'currency', 'EUR']);
    } finally {
      holder.exec('ROLLBACK');
      holder.close();
    }
    expect(Date.now() - started).toBeGreaterThanOrEqual(BUSY_TIMEOUT_MS);
    const message = `Another brick-work is writing to this store (${file}); try again in a moment. Nothing was changed.`;
    expect(r.code).toBe(1);
    expect(r.json.error).toEqual({ code: 'store-busy', message });
    expect(r.stderr).toBe(`brick-work: ${message}\n`);

    expect(sha256(file)).toBe(before);
    expect((await cliJson(['--db', file, 'settings', 'currency'])).json).toMatchObject({ value: 'USD' });
  });

  describe('a store that can’t be written opens for reading (run unprivileged: root may write anything)', () => {
    it.runIf(needs(process.platform !== 'win32', 'POSIX file permissions', 'a read-only store'))(
      'a read-only file in a writable folder: read in place; writes refused with read-only-store',
      async () => {
        const dir = workDir();
        const shop = path.join(dir, 'shop');
        fs.mkdirSync(shop);
        const file = path.join(shop, 'brick-work.sqlite');
        await storeWithOrder(file);
        fs.chmodSync(file, 0o444);
        fs.chmodSync(shop, 0o777);
        const before = sha256(file);

        const results = await readsWorkWritesRefused(file, 'the file is read-only', {}, 1);
        // Read in place: no copy was needed, and none was announced.
        for (const r of results) expect(r.stderr).not.toContain('private copy');
        expect(results[0]?.json.snapshot).toBe(false);

        expect(sha256(file)).toBe(before);
      },
    );

    it.runIf(needs(process.platform !== 'win32', 'POSIX file permissions', 'a read-only store'))(
      'a WAL store in a read-only folder: read from a private snapshot of the file and its -wal, which it says; writes refused',
      async () => {
        const dir = workDir();
        const shop = path.join(dir, 'shop');
        fs.mkdirSync(shop);
        const file = path.join(shop, 'brick-work.sqlite');
        await storeWithOrder(file);
        commitOnlyToWal(file, 'only in the -wal');
        fs.chmodSync(file, 0o444);
        fs.chmodSync(`${file}-wal`, 0o444);
        fs.chmodSync(shop, 0o555);
        const before = { file: sha256(file), wal: sha256(`${file}-wal`), names: listing(shop) };
        // The child's own temporary folder, to see that its snapshots are gone once it is done.
        const tmp = path.join(dir, 'tmp');
        fs.mkdirSync(tmp);
        fs.chmodSync(tmp, 0o777);

        // SQLite itself can't read it in place: the -shm index it needs can't be made in the folder
        // (SQLITE_READONLY_DIRECTORY without a -wal, SQLITE_CANTOPEN with one).
        const read =
          "new (require('better-sqlite3'))(process.argv[1], { readonly: true }).prepare('SELECT 1 FROM sqlite_master').get()";
        const [program, ...args] = unprivileged([process.execPath, '-e', read, file]);
        expect(spawnSync(program ?? '', args, { cwd: REPO_ROOT, encoding: 'utf8' }).stderr).toMatch(
          /code: 'SQLITE_(READONLY_DIRECTORY|CANTOPEN)'/,
        );

        const reason = `the file and its folder (${shop}) are read-only`;
        const results = await readsWorkWritesRefused(file, reason, { TMPDIR: tmp }, 2);
        expect(results[0]?.json.snapshot).toBe(true);
        // The commit that is only in the -wal is there: the snapshot took the -wal along.
        expect(results[1]?.json.orders.map((o: { reference: string }) => o.reference)).toContain('only in the -wal');
        for (const r of results.slice(1, 5)) {
          // The BrickLink export's file goes to stdout; what it leaves out (unplaced lines) follows on stderr.
          expect(r.stderr.split('\n')[0]).toBe(
            "brick-work: reading a private copy of the store: SQLite can't read it in place, as its folder can't be written",
          );
          expect(r.stderr).toMatch(/^[^\n]*\n(brick-work: [^\n]*left out[^\n]*\n)*$/);
        }
        expect(fs.readdirSync(tmp).filter((n) => n.startsWith('brick-work-snapshot-'))).toEqual([]);

        expect({ file: sha256(file), wal: sha256(`${file}-wal`), names: listing(shop) }).toEqual(before);
      },
    );

    it.runIf(needs(process.platform !== 'win32', 'POSIX file permissions', 'a read-only store'))(
      'the browser host on such a store: says so at start and in store.info, refuses writes, skips job recovery and the job runner',
      async () => {
        const dir = workDir();
        const shop = path.join(dir, 'shop');
        fs.mkdirSync(shop);
        const file = path.join(shop, 'brick-work.sqlite');
        await storeWithOrder(file);
        // A job left running by no owner at all: a writable start would put it back in the queue.
        const db = new Database(file);
        const jobId = insertJob(db, { kind: 'catalogue-lookup', state: 'running' });
        db.close();
        fs.chmodSync(file, 0o444);
        fs.chmodSync(shop, 0o555);
        const before = { file: sha256(file), names: listing(shop) };
        const renderer = path.join(dir, 'renderer');
        fs.mkdirSync(renderer);
        fs.writeFileSync(path.join(renderer, 'index.html'), '<!doctype html><title>brick-work</title>');
        const tmp = path.join(dir, 'tmp');
        fs.mkdirSync(tmp);
        fs.chmodSync(tmp, 0o777);

        const host = await startHostAsNobody(file, renderer, tmp);
        const reason = `the file and its folder (${shop}) are read-only`;
        expect(host.banner).toBe(`brick-work is serving ${file} for reading only (${reason}; from a private copy)`);

        const info = await host.call('store.info', {});
        expect(info).toMatchObject({
          ok: true,
          value: { path: file, readOnly: { reason, snapshot: true }, recovered: [] },
        });
        const jobs = await host.call('jobs.list', {});
        expect(jobs.ok && (jobs.value as { id: number; state: string }[]).find((j) => j.id === jobId)?.state).toBe(
          'running',
        );
        const orders = await host.call('orders.list', {});
        expect(orders.ok && (orders.value as unknown[]).length).toBe(1);
        // A compare is a read (SPEC §13): it works on a store that can't be written.
        const order = { kind: 'order', orderId: (orders.ok && (orders.value as { id: number }[])[0]?.id) || 0 };
        const compared = await host.call('compare.run', { left: order, right: order });
        expect(compared.ok && (compared.value as { totals: { missing: number } }).totals.missing).toBe(0);
        for (const [name, args] of [
          ['settings.set', { key: 'currency', value: 'EUR' }],
          ['jobs.cancel', { jobId }],
          ['catalogue.load', { files: [{ name: 'parts.csv', content: new TextEncoder().encode('a,b\n') }] }],
        ] as const) {
          expect(await host.call(name, args)).toEqual({
            ok: false,
            error: { code: 'read-only-store', message: readOnlyMessage(file, reason) },
          });
        }

        await host.stop();
        expect(host.log()).toContain(
          `brick-work: ${file} can't be written (${reason}): it is open for reading only, from a private copy; job recovery and the job runner are off`,
        );
        expect(host.log()).not.toContain('job runner stopped');
        expect(fs.readdirSync(tmp).filter((n) => n.startsWith('brick-work-snapshot-'))).toEqual([]);
        expect({ file: sha256(file), names: listing(shop) }).toEqual(before);
      },
    );

    it.runIf(
      needs(
        hasChromium() && process.platform !== 'win32',
        `${NEEDS_CHROMIUM} and POSIX file permissions`,
        'a read-only store in the browser',
      ),
    )('the screens show the read-only banner, naming the reason and the snapshot copy', async () => {
      const dir = workDir();
      const shop = path.join(dir, 'shop');
      fs.mkdirSync(shop);
      const file = path.join(shop, 'brick-work.sqlite');
      await storeWithOrder(file);
      fs.chmodSync(file, 0o444);
      fs.chmodSync(shop, 0o555);
      const before = sha256(file);
      const renderer = path.join(dir, 'renderer');
      buildScreens(renderer);
      fs.chmodSync(renderer, 0o755);

      const host = await startHostAsNobody(file, renderer, os.tmpdir());
      const browser = await launchBrowser();
      try {
        const page = await browser.context.newPage();
        await page.goto(host.url);
        const banner = page.getByTestId('read-only-banner');
        await banner.waitFor();
        expect(await banner.textContent()).toBe(
          `Read only: this store can't be written — the file and its folder (${shop}) are read-only. You can look and export; changes are refused. ` +
            'To change it, ask whoever manages this computer to make it writable, then start brick-work again. ' +
            'You are looking at a private copy taken when brick-work started: changes made elsewhere since then do not show here.',
        );
        await page.getByText('order-brick-work.sqlite.xml').first().waitFor();
      } finally {
        await browser.close();
        await host.stop();
      }
      expect(sha256(file)).toBe(before);
    });
  });

  describe('store-damaged: a folder, or a SQLite file cut short, is not "another application’s file"', () => {
    it('a folder given as the store', async () => {
      const dir = workDir();
      const folder = path.join(dir, 'shop');
      fs.mkdirSync(folder);
      fs.writeFileSync(path.join(folder, 'notes.txt'), 'the store is not here');
      const before = { notes: sha256(path.join(folder, 'notes.txt')), inside: listing(folder), beside: listing(dir) };
      const message = `${folder} is a folder, not a brick-work store file. Nothing was changed; give the store file itself (for example ${folder}/brick-work.sqlite).`;

      for (const command of [['store', 'info'], ['orders'], ['settings', 'currency', 'EUR'], ['store', 'upgrade']]) {
        const r = await cliJson(['--db', folder, ...command]);
        expect(r.code, command.join(' ')).toBe(1);
        expect(r.json.error).toEqual({ code: 'store-damaged', message });
      }
      for (const readOnly of [true, false]) {
        const e = await openStore(folder, { readOnly }).then(
          (s) => (s.close(), null),
          (x: unknown) => x,
        );
        expect(e).toBeInstanceOf(BrickWorkError);
        expect((e as BrickWorkError).toValue()).toEqual({ code: 'store-damaged', message });
      }
      expect({ notes: sha256(path.join(folder, 'notes.txt')), inside: listing(folder), beside: listing(dir) }).toEqual(
        before,
      );
    });

    it('a store cut short anywhere — in its header, mid-page, at a page boundary — or with a garbled first page', async () => {
      const dir = workDir();
      const source = path.join(dir, 'whole', 'brick-work.sqlite');
      fs.mkdirSync(path.dirname(source));
      await storeWithOrder(source);
      const whole = fs.readFileSync(source);
      const pageSize = whole.readUInt16BE(16);
      expect(whole.length % pageSize).toBe(0);
      const half = Math.floor(whole.length / pageSize / 2) * pageSize;
      const garbled = Buffer.from(whole);
      garbled.fill(0xff, 100, pageSize);

      const cases = [
        {
          name: 'header',
          bytes: whole.subarray(0, 50),
          how: 'cut short (only 50 bytes, less than its 100-byte header)',
        },
        // Issue 26, point 4: its first 2, 8 or 15 bytes are a store cut short too, not "not a SQLite database".
        ...[2, 8, 15].map((n) => ({
          name: `first-${n}-bytes`,
          bytes: whole.subarray(0, n),
          how: `cut short (only ${n} bytes, less than its 100-byte header)`,
        })),
        {
          name: 'mid-page',
          bytes: whole.subarray(0, pageSize + 904),
          how: `cut short (${pageSize + 904} bytes, not a whole number of its ${pageSize}-byte pages)`,
        },
        {
          name: 'page-boundary',
          bytes: whole.subarray(0, half),
          how: `cut short (only ${half} of its ${whole.length} bytes are there)`,
        },
        {
          name: 'last-page',
          bytes: whole.subarray(0, whole.length - pageSize),
          how: `cut short (only ${whole.length - pageSize} of its ${whole.length} bytes are there)`,
        },
      ];
      for (const c of cases) {
        const shop = path.join(dir, c.name);
        fs.mkdirSync(shop);
        const file = path.join(shop, 'brick-work.sqlite');
        fs.writeFileSync(file, c.bytes);
        const before = sha256(file);
        const message = `${file} is damaged: it is a SQLite file that has been ${c.how}. It was left untouched; put back a copy from a backup, then try again.`;
        for (const command of [
          ['store', 'info'],
          ['orders'],
          ['import', path.join(dir, 'order-brick-work.sqlite.xml')],
        ]) {
          const r = await cliJson(['--db', file, ...command]);
          expect(r.code, `${c.name}: ${command.join(' ')}`).toBe(1);
          expect(r.json.error).toEqual({ code: 'store-damaged', message });
        }
        for (const readOnly of [true, false]) {
          const e = await openStore(file, { readOnly }).then(
            (s) => (s.close(), null),
            (x: unknown) => x,
          );
          expect((e as BrickWorkError).toValue(), c.name).toEqual({ code: 'store-damaged', message });
        }
        expect(sha256(file), c.name).toBe(before);
        // Never opened by SQLite, so no -wal or -shm was made beside it.
        expect(listing(shop), c.name).toEqual(['brick-work.sqlite']);
      }

      // Whole in length, but its first page garbled: SQLite opens it, makes its -wal and -shm, and fails;
      // those two (empty, made by this open) are removed again.
      const shop = path.join(dir, 'garbled');
      fs.mkdirSync(shop);
      const file = path.join(shop, 'brick-work.sqlite');
      fs.writeFileSync(file, garbled);
      const before = sha256(file);
      const message =
        `${file} is damaged: it starts like a SQLite file, but SQLite can't read it (database disk image is malformed). ` +
        'It was left untouched; put back a copy from a backup, or ask for help before changing it.';
      for (const command of [['orders'], ['settings', 'currency', 'EUR']]) {
        const r = await cliJson(['--db', file, ...command]);
        expect(r.json.error).toEqual({ code: 'store-damaged', message });
      }
      expect(sha256(file)).toBe(before);
      expect(listing(shop)).toEqual(['brick-work.sqlite']);
    });
  });

  describe.runIf(needs(canMount, 'root on Linux, to mount a small tmpfs', 'the disk-full tests'))(
    'disk-full (a real full disk: a small tmpfs; needs root on Linux)',
    () => {
      it('an import that fills the disk is rolled back; the store opens afterwards, as it was, and takes the import once there is room', async () => {
        const dir = workDir();
        const disk = smallDisk(dir);
        const file = path.join(disk, 'brick-work.sqlite');
        await storeWithOrder(file);
        const doc = bigDocument(dir);
        const before = sha256(file);

        // Room for SQLite's index and a few pages, not for 5,000 lines: SQLite meets ENOSPC (SQLITE_FULL).
        const free = fillDisk(disk, 160 * 1024);
        const r = await cliJson(['--db', file, 'import', doc]);
        expect(r.code).toBe(1);
        expect(r.json.error).toEqual({ code: 'disk-full', message: diskFullMessage(`this store (${file})`) });
        expect(r.stderr).toBe(`brick-work: ${diskFullMessage(`this store (${file})`)}\n`);
        expect(sha256(file)).toBe(before);

        // No room at all: even the -shm index can't grow, which SQLite reports as a disk I/O error
        // (SQLITE_IOERR_SHMSIZE) — on a disk with nothing left, that is the full disk it is.
        free();
        const freeNone = fillDisk(disk, 0);
        const none = await cliJson(['--db', file, 'import', doc]);
        expect(none.json.error).toEqual({ code: 'disk-full', message: diskFullMessage(`this store (${file})`) });
        // A command that only reads reads a private copy while a -wal or -shm is beside (issue 45): on
        // another disk, so it answers even here.
        const reading = await cliJson(['--db', file, 'orders']);
        expect(reading.json.orders, reading.stderr).toHaveLength(1);
        expect(sha256(file)).toBe(before);

        freeNone();
        const orders = await cliJson(['--db', file, 'orders']);
        expect(orders.json.orders).toHaveLength(1);
        expect((await cliJson(['--db', file, 'store', 'info'])).json.counts).toMatchObject({ orders: 1, lines: 2 });
        expect(sha256(file)).toBe(before);
        const again = await cliJson(['--db', file, 'import', doc]);
        expect(again.code, again.stderr).toBe(0);
        expect(again.json.imports[0].lines.total).toBe(5000);
      });

      it('the API service says disk-full too, naming the store, and rolls the import back', async () => {
        const dir = workDir();
        const disk = smallDisk(dir);
        const file = path.join(disk, 'brick-work.sqlite');
        await storeWithOrder(file);
        const before = sha256(file);
        const store = await openStore(file);
        const service = serviceFor(store.db, file);
        const free = fillDisk(disk, 160 * 1024);
        try {
          const content = fs.readFileSync(bigDocument(dir));
          const r = await service.call('import.confirm', { file: { name: 'big.xml', content } });
          expect(r).toEqual({
            ok: false,
            error: { code: 'disk-full', message: diskFullMessage(`this store (${file})`) },
          });
          const orders = await service.call('orders.list', {});
          expect(orders.ok && (orders.value as unknown[]).length).toBe(1);
        } finally {
          store.close();
          free();
        }
        expect(sha256(file)).toBe(before);
      });

      it('an upgrade whose backup does not fit changes nothing and leaves no half backup; it upgrades once there is room', async () => {
        const dir = workDir();
        const disk = smallDisk(dir, '8m');
        const file = path.join(disk, 'brick-work.sqlite');
        const db = buildStore(file, '4.1');
        populate41(db);
        addUnplacedLines(db, 20_000);
        db.close();
        const before = sha256(file);
        const size = fs.statSync(file).size;
        expect(size).toBeGreaterThan(1024 * 1024);

        // Room for the open, not for a copy of the whole file.
        const free = fillDisk(disk, 256 * 1024);
        const r = await cliJson(['--db', file, 'store', 'upgrade']);
        expect(r.code).toBe(1);
        expect(r.json.error).toEqual({ code: 'disk-full', message: diskFullMessage(`${file}.4.1.bak`) });
        expect(sha256(file)).toBe(before);
        expect(listing(disk).filter((n) => n.includes('.bak'))).toEqual([]);
        expect((await cliJson(['--db', file, 'store', 'info'])).json).toMatchObject({
          schema: '4.1',
          status: 'needs-upgrade',
        });

        free();
        const up = await cliJson(['--db', file, 'store', 'upgrade']);
        expect(up.json).toMatchObject({ schema: '4.2', upgradedFrom: '4.1', backup: `${file}.4.1.bak` });
        expect((await cliJson(['--db', `${file}.4.1.bak`, 'store', 'info'])).json).toMatchObject({
          schema: '4.1',
          counts: { lines: 20_010 },
        });
      });

      it('a catalogue load that fills the disk ends its job as failed, with the reason, even with no room left to write it', async () => {
        const dir = workDir();
        const disk = smallDisk(dir, '32m');
        const file = path.join(disk, 'brick-work.sqlite');
        await storeWithOrder(file);
        const parts = path.join(dir, 'parts.csv');
        fs.writeFileSync(
          parts,
          'part_num,name,part_cat_id,part_material\n' +
            Array.from(
              { length: 40_000 },
              (_, i) => `${10_000 + i},Brick ${i} x 2 with a name long enough,11,Plastic\n`,
            ).join(''),
        );
        const free = fillDisk(disk, 160 * 1024);
        const r = await cliJson(['--db', file, 'catalogue', 'import', parts]);
        expect(r.code, r.stderr).toBe(1);
        expect(r.json.error.code).toBe('disk-full');
        // The job's file says how it ended, though the disk had no room for a new copy of it.
        const job = JSON.parse(fs.readFileSync(path.join(disk, 'catalogue-job.json'), 'utf8'));
        expect(job).toMatchObject({ state: 'failed', error: expect.stringContaining('The disk is full') });
        expect(listing(disk).filter((f) => f.endsWith('.tmp'))).toEqual([]);
        free();
        const again = await cliJson(['--db', file, 'catalogue', 'import', parts]);
        expect(again.code, JSON.stringify(again.json)).toBe(0);
        expect(again.json.items).toBe(40_000);
      });

      it('an export written to a full disk leaves no half file behind', async () => {
        const dir = workDir();
        const file = path.join(dir, 'shop', 'brick-work.sqlite');
        fs.mkdirSync(path.dirname(file));
        await storeWithOrder(file);
        const before = sha256(file);
        const disk = smallDisk(dir, '1m');
        fillDisk(disk, 0);
        const out = path.join(disk, 'summary.csv');

        const r = await cliJson(['--db', file, 'export', 'summary', '--out', out]);
        expect(r.code).toBe(1);
        expect(r.json.error).toEqual({ code: 'disk-full', message: diskFullMessage(out) });
        expect(listing(disk)).toEqual(['filler']);
        expect(sha256(file)).toBe(before);
      });
    },
  );
});

// ——— the browser host, as the unprivileged user —————————————————————————————————————————————————

interface HostAsNobody {
  readonly url: string;
  /** The line it printed first: what it is serving. */
  readonly banner: string;
  call(name: string, args: unknown): Promise<{ ok: boolean; value?: unknown; error?: unknown }>;
  log(): string;
  stop(): Promise<void>;
}

async function startHostAsNobody(file: string, renderer: string, tmp: string): Promise<HostAsNobody> {
  const child = spawnUnprivileged([process.execPath, ...hostArgs(), '--db', file, '--renderer', renderer], {
    TMPDIR: tmp,
  });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const out = lines(child);
  const url = (await out.waitFor(/^open http/)).replace(/^open /, '');
  const banner = await out.waitFor(/^brick-work is serving/);
  const { port } = new URL(url);
  const token = /#token=([\w-]+)/.exec(new URL(url).hash)?.[1] ?? '';
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    child.kill('SIGTERM');
    if (child.exitCode === null && child.signalCode === null)
      await new Promise((resolve) => child.once('exit', resolve));
  };
  onTestFinished(stop);
  return {
    url,
    banner,
    log: () => stderr,
    stop,
    call: (name, args) =>
      new Promise((resolve, reject) => {
        const body = encodeWire(args);
        const req = http.request(
          {
            host: '127.0.0.1',
            port,
            path: `/api/call/${name}`,
            method: 'POST',
            headers: { Host: `127.0.0.1:${port}`, Authorization: `Bearer ${token}` },
          },
          (res) => {
            let text = '';
            res.on('data', (d: Buffer) => (text += d.toString()));
            res.on('end', () => resolve(decodeWire(text) as { ok: boolean }));
          },
        );
        req.on('error', reject);
        req.end(body);
      }),
  };
}
