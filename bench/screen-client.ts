/**
 * The screens of a browser, for the uploads row of answers.bench.ts: a process of its own (as a browser
 * is), making the screens' calls over HTTP to the browser host in turn, each timed from its request to
 * its answer read whole, until its stdin closes; then it prints what it timed, one JSON array.
 * Times are absolute (`performance.timeOrigin` + `now()`), so the host's process can set them beside its own.
 *
 *   node --import tsx bench/screen-client.ts PORT TOKEN CALLS_JSON
 */
import { performance } from 'node:perf_hooks';

const [port, token, callsJson] = process.argv.slice(2);
if (port === undefined || token === undefined || callsJson === undefined) {
  console.error('usage: screen-client.ts PORT TOKEN CALLS_JSON');
  process.exit(2);
}
const calls = JSON.parse(callsJson) as [string, string][];
const now = () => performance.timeOrigin + performance.now();

const answered: { name: string; start: number; end: number; ok: boolean; ready: boolean }[] = [];
let going = true;
process.stdin.on('data', () => {}).on('end', () => (going = false));

async function call(name: string, body: string) {
  const res = await fetch(`http://127.0.0.1:${port}/api/call/${name}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body,
  });
  // The answers carry no files: plain JSON (the wire's `$bytes` appears only where a value is bytes).
  return JSON.parse(await res.text()) as { ok: boolean; value?: { ready?: boolean } };
}

for (let i = 0; i < 5; i++) for (const [name, body] of calls) await call(name, body);
console.error('ready');
while (going) {
  for (const [name, body] of calls) {
    const start = now();
    const r = await call(name, body);
    answered.push({ name, start, end: now(), ok: r.ok, ready: r.ok && r.value?.ready !== false });
    await new Promise((resolve) => setImmediate(resolve));
  }
  await new Promise((resolve) => setTimeout(resolve, 10));
}
process.stdout.write(JSON.stringify(answered));
