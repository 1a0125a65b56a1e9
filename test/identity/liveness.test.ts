import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { identityOf, isAlive, PID_ONLY, type OwnerIdentity } from '../../src/identity/owner.ts';
import { procView } from '../../src/identity/proc.ts';
import { parseStat } from '../../src/identity/stat.ts';
import { REPO_ROOT } from '../helpers/cli.ts';
import { tempDir } from '../helpers/temp.ts';
import { exited, lines } from '../helpers/workers.ts';

function startSleeper(command = 'sleep', args = ['30']): ChildProcess {
  const child = spawn(command, args, { stdio: 'ignore' });
  onTestFinished(() => {
    child.kill('SIGKILL');
  });
  return child;
}

function pidOf(child: ChildProcess): number {
  if (child.pid === undefined) throw new Error('the child did not start');
  return child.pid;
}

async function waitUntil(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 500; i++) {
    if (check()) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('is the owner alive? (SPEC §3)', () => {
  it('a live owner with its true identity → alive', () => {
    const me = identityOf();
    expect(me.bootId).toBe(fs.readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim());
    expect(me.startTicks).toBeGreaterThan(0);
    expect(isAlive(me)).toBe(true);
    const sleeper = identityOf(pidOf(startSleeper()));
    expect(isAlive(sleeper)).toBe(true);
  });

  it('the same pid with start_ticks one more or one less → dead', () => {
    const owner = identityOf(pidOf(startSleeper()));
    const ticks = owner.startTicks ?? 0;
    expect(isAlive({ ...owner, startTicks: ticks + 1 })).toBe(false);
    expect(isAlive({ ...owner, startTicks: ticks - 1 })).toBe(false);
  });

  it('another boot_id → dead', () => {
    const owner = identityOf();
    expect(isAlive({ ...owner, bootId: '00000000-0000-4000-8000-000000000000' })).toBe(false);
  });

  it('a row without identity (written before 4.2) → dead, even for a live pid', () => {
    expect(isAlive({ pid: process.pid, bootId: null, startTicks: null })).toBe(false);
  });

  it('a pid that has ended → dead', async () => {
    const child = startSleeper('true', []);
    const owner = identityOf(pidOf(child));
    await exited(child);
    await waitUntil(() => !fs.existsSync(`/proc/${owner.pid}`), 'the child to be reaped');
    expect(isAlive(owner)).toBe(false);
  });

  it('an unreaped zombie child → dead', async () => {
    // The shell starts a short sleep and becomes a long one, which never reaps it: a zombie.
    const parent = spawn('sh', ['-c', 'sleep 0.05 & echo $!; exec sleep 30'], { stdio: ['ignore', 'pipe', 'ignore'] });
    onTestFinished(() => {
      parent.kill('SIGKILL');
    });
    const pid = Number(await lines(parent).waitFor(/^\d+$/));
    const owner = identityOf(pid);
    expect(owner.startTicks).not.toBeNull();
    await waitUntil(() => procView().stat(pid)?.state === 'Z', 'the zombie');
    expect(() => process.kill(pid, 0)).not.toThrow(); // the pid still exists…
    expect(isAlive(owner)).toBe(false); // …but it can do no more work
  });

  it('a thread id of a live process → dead', () => {
    const tids = fs
      .readdirSync('/proc/self/task')
      .map(Number)
      .filter((t) => t !== process.pid);
    expect(tids.length).toBeGreaterThan(0);
    const tid = tids[0] ?? 0;
    const stat = procView().stat(tid);
    expect(stat).not.toBeNull();
    const owner: OwnerIdentity = { pid: tid, bootId: identityOf().bootId, startTicks: stat?.startTicks ?? null };
    expect(() => process.kill(tid, 0)).not.toThrow(); // kill(2) accepts a thread id
    expect(isAlive(owner)).toBe(false);
  });

  it('pid 0 and negative pids → dead', () => {
    const me = identityOf();
    for (const pid of [0, -1, -process.pid]) expect(isAlive({ ...me, pid })).toBe(false);
    for (const pid of [0, -1]) expect(isAlive({ pid, bootId: PID_ONLY, startTicks: null })).toBe(false);
  });

  it('a stat line whose command name holds spaces and ")" → parsed after the last ")"', () => {
    const line =
      '4242 (we) ird (x) y) S 1 4242 4242 0 -1 4194560 100 0 0 0 1 2 0 0 20 0 1 0 987654 1000 10 18446744073709551615';
    expect(parseStat(line)).toEqual({ pid: 4242, comm: 'we) ird (x) y', state: 'S', startTicks: 987654 });
  });

  it('a real process whose command name holds spaces and ")" → alive with its identity, dead with another', () => {
    const dir = tempDir();
    const odd = path.join(dir, 'a) b (c');
    fs.symlinkSync(execFileSync('sh', ['-c', 'command -v sleep']).toString().trim(), odd);
    const pid = pidOf(startSleeper(odd, ['30']));
    const stat = procView().stat(pid);
    expect(stat?.comm).toBe('a) b (c');
    const owner = identityOf(pid);
    expect(owner.startTicks).toBe(
      Number(fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ').at(-1)?.split(' ')[19]),
    );
    expect(isAlive(owner)).toBe(true);
    expect(isAlive({ ...owner, startTicks: (owner.startTicks ?? 0) + 1 })).toBe(false);
  });

  it('no /proc → the identity is pid-only, and a pid-only row is checked by its pid', async () => {
    const noProc = procView(null);
    const me = identityOf(process.pid, noProc);
    expect(me).toEqual({ pid: process.pid, bootId: 'pid-only', startTicks: null });
    expect(isAlive(me, noProc)).toBe(true);
    expect(isAlive(me)).toBe(true); // a pid-only row read on Linux: still the pid alone
    const child = startSleeper('true', []);
    const gone = { pid: pidOf(child), bootId: PID_ONLY, startTicks: null };
    await exited(child);
    await waitUntil(() => !fs.existsSync(`/proc/${gone.pid}`), 'the child to be reaped');
    expect(isAlive(gone, noProc)).toBe(false);
    // A full identity judged where /proc can't answer: only the pid is checked.
    expect(isAlive({ ...identityOf(), startTicks: 1 }, noProc)).toBe(true);
  });

  it('a /proc root that shows no stat for a live pid (hidepid) → only the pid is checked', () => {
    const root = tempDir();
    fs.mkdirSync(path.join(root, 'sys', 'kernel', 'random'), { recursive: true });
    const bootId = identityOf().bootId ?? '';
    fs.writeFileSync(path.join(root, 'sys', 'kernel', 'random', 'boot_id'), `${bootId}\n`);
    const hidden = procView(root);
    expect(isAlive({ pid: process.pid, bootId, startTicks: 12345 }, hidden)).toBe(true);
    expect(isAlive({ pid: process.pid, bootId: 'another-boot', startTicks: 12345 }, hidden)).toBe(false);
    // and with the stat there, the start time decides again
    fs.mkdirSync(path.join(root, String(process.pid)));
    fs.writeFileSync(path.join(root, String(process.pid), 'stat'), fs.readFileSync(`/proc/${process.pid}/stat`));
    expect(isAlive({ pid: process.pid, bootId, startTicks: 12345 }, hidden)).toBe(false);
    expect(isAlive(identityOf(), hidden)).toBe(true);
  });

  it('a process of another user (EPERM) → alive', async () => {
    const owner = identityOf();
    if (process.getuid?.() === 0) {
      // We are root: ask from a process running as nobody, for which our pid answers EPERM.
      const checker = spawn(
        process.execPath,
        ['--import', 'tsx', path.join(REPO_ROOT, 'test', 'workers', 'check-alive.ts'), JSON.stringify(owner)],
        {
          cwd: REPO_ROOT,
          uid: 65534,
          gid: 65534,
          env: { ...process.env, HOME: '/tmp' },
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      const answer = JSON.parse(await lines(checker).waitFor(/^\{/)) as Record<string, unknown>;
      expect(answer).toMatchObject({ probe: 'EPERM', exists: true, alive: true, uid: 65534 });
    } else {
      // Not root: pid 1 belongs to root, so our probe of it answers EPERM.
      expect(() => process.kill(1, 0)).toThrow(expect.objectContaining({ code: 'EPERM' }));
      expect(isAlive(identityOf(1))).toBe(true);
    }
  });
});
