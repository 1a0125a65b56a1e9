/**
 * Issue 61 §3: a browser host started while another process holds the store's write lock (a long write
 * elsewhere: 25 s of `BEGIN IMMEDIATE`) starts. It answers reads, says that writes wait, and takes up its
 * start-up recovery (a job a dead process left running) as soon as the lock frees — where before it
 * gave up after 11 s with "Another brick-work is writing… try again".
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { expect, it, onTestFinished } from 'vitest';
import { decodeWire, encodeWire } from '../../src/api/wire.ts';
import { openStore } from '../../src/store/open.ts';
import { holdLock } from '../helpers/soak-lock.ts';
import { hostArgs } from '../helpers/built.ts';
import { REPO_ROOT } from '../helpers/cli.ts';
import { insertJob, insertJobOwner } from '../helpers/store-builder.ts';
import { tempDir } from '../helpers/temp.ts';
import { lines } from '../helpers/workers.ts';

it('a host started under another process’s write lock starts, answers reads, says writes wait, and recovers once the lock frees', async () => {
  const dir = tempDir();
  const file = path.join(dir, 'brick-work.sqlite');
  const setup = await openStore(file);
  // A job a process that is gone left running: the start's recovery queues it again.
  const jobId = insertJob(setup.db, { kind: 'catalogue-lookup', state: 'running' });
  insertJobOwner(setup.db, { jobId, pid: 2147483646, identity: { bootId: 'gone', startTicks: 1 } });
  setup.close();
  const renderer = path.join(dir, 'renderer');
  fs.mkdirSync(renderer);
  fs.writeFileSync(path.join(renderer, 'index.html'), '<!doctype html><title>brick-work</title>');

  const holder = await holdLock(file);
  onTestFinished(() => void holder.kill('SIGKILL'));
  const started = performance.now();
  const host = spawn(process.execPath, [...hostArgs(), '--db', file, '--renderer', renderer], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  onTestFinished(() => void host.kill('SIGTERM'));
  let stderr = '';
  host.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | null>((resolve) => host.once('exit', (code) => resolve(code)));
  const opened = lines(host).waitFor(/^open http/, 25_000);
  const first = await Promise.race([opened, exited.then((code) => `exited ${code}: ${stderr}`)]);
  expect(first, stderr).toMatch(/^open http/);
  expect(performance.now() - started, 'it starts without waiting out the lock').toBeLessThan(8_000);
  expect(stderr).toMatch(/holds this store’s write lock: .*answers reads now, writes wait until the lock is free/);

  const url = new URL(first.replace(/^open /, ''));
  const token = /#token=([\w-]+)/.exec(url.hash)?.[1] ?? '';
  const call = (name: string, args: unknown) =>
    new Promise<{ ok: boolean; value?: any; error?: { code: string; message: string } }>((resolve, reject) => {
      const req = http.request(
        {
          host: '127.0.0.1',
          port: Number(url.port),
          path: `/api/call/${name}`,
          method: 'POST',
          headers: { Host: `127.0.0.1:${url.port}`, Authorization: `Bearer ${token}` },
          agent: false,
        },
        (res) => {
          let text = '';
          res.on('data', (d: Buffer) => (text += d.toString()));
          res.on('end', () => resolve(decodeWire(text) as never));
        },
      );
      req.on('error', reject);
      req.end(encodeWire(args));
    });

  // Reads answer while the lock is held; the dead process's job is not recovered yet.
  const t = performance.now();
  const listed = await call('jobs.list', {});
  expect(listed.ok).toBe(true);
  expect(performance.now() - t).toBeLessThan(2_000);
  expect(listed.value.find((j: { id: number }) => j.id === jobId)).toMatchObject({ state: 'running', alive: false });

  // The lock frees: the recovery is taken up by itself, within a few seconds.
  holder.stdin?.write('commit\n');
  let job: { state: string; recoveries: number } | undefined;
  const freed = performance.now();
  do {
    await new Promise((r) => setTimeout(r, 100));
    job = (await call('jobs.list', {})).value.find((j: { id: number }) => j.id === jobId);
  } while (job?.state === 'running' && performance.now() - freed < 10_000);
  expect(job).toMatchObject({ state: 'queued', recoveries: 1 });
  expect(stderr).toMatch(/recovered job \d+ \(catalogue-lookup\): .* is gone; it is queued again/);
  expect(host.exitCode).toBeNull();
}, 60_000);
