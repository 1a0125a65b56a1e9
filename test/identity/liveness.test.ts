import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { bootSessionReader } from '../../src/identity/boot-session.ts';
import { identityOf, isAlive, pidExists, PID_ONLY, type OwnerIdentity } from '../../src/identity/owner.ts';
import { procView } from '../../src/identity/proc.ts';
import { parseStat } from '../../src/identity/stat.ts';
import { REPO_ROOT } from '../helpers/cli.ts';
import { needs } from '../helpers/needs.ts';
import { tempDir } from '../helpers/temp.ts';
import { exited, lines } from '../helpers/workers.ts';

/** Whether this machine has a /proc to read (Linux); a Mac has none, and its tests use the made-up one. */
const HAS_PROC = procView().bootId() !== null;
const PROC = "Linux's /proc (macOS and Windows have none: the rule itself is tested on a made-up /proc)";

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

/** A pid that has ended and been reaped. */
async function gonePid(): Promise<number> {
  const child = startSleeper('true', []);
  const pid = pidOf(child);
  await exited(child);
  await waitUntil(() => !pidExists(pid), 'the child to be reaped');
  return pid;
}

const BOOT = '6f1c2a4e-0b9d-4c3e-8a7f-1d2e3f405162';
const OTHER_BOOT = '00000000-0000-4000-8000-000000000000';

/**
 * A /proc of our own making, as Linux lays it out: a boot id, and per pid a stat line (state, start
 * ticks after the last ")") and a status with its Tgid. The rule is tested on it wherever the tests run.
 */
function madeUpProc(): {
  root: string;
  process(pid: number, p: { ticks: number; state?: string; tgid?: number; comm?: string }): void;
} {
  const root = tempDir();
  fs.mkdirSync(path.join(root, 'sys', 'kernel', 'random'), { recursive: true });
  fs.writeFileSync(path.join(root, 'sys', 'kernel', 'random', 'boot_id'), `${BOOT}\n`);
  return {
    root,
    process(pid, { ticks, state = 'S', tgid = pid, comm = 'brick-work' }) {
      const fields = [state, ...Array.from({ length: 49 }, (_, i) => (i === 18 ? String(ticks) : '0'))];
      fs.mkdirSync(path.join(root, String(pid)), { recursive: true });
      fs.writeFileSync(path.join(root, String(pid), 'stat'), `${pid} (${comm}) ${fields.join(' ')}\n`);
      fs.writeFileSync(path.join(root, String(pid), 'status'), `Name:\t${comm}\nTgid:\t${tgid}\nPid:\t${pid}\n`);
    },
  };
}

describe('is the owner alive? the rule, on a made-up /proc (SPEC §3; every platform)', () => {
  it('reads the identity from it: its boot id and the stat line’s field 22', () => {
    const proc = madeUpProc();
    proc.process(process.pid, { ticks: 4242, comm: 'we) ird (x) y' });
    expect(identityOf(process.pid, procView(proc.root))).toEqual({ pid: process.pid, bootId: BOOT, startTicks: 4242 });
  });

  it('a live pid with its exact boot and start ticks → alive; one tick more or less, or another boot → dead', () => {
    const proc = madeUpProc();
    const pid = pidOf(startSleeper());
    proc.process(pid, { ticks: 1000 });
    const view = procView(proc.root);
    expect(isAlive({ pid, bootId: BOOT, startTicks: 1000 }, view)).toBe(true);
    expect(isAlive({ pid, bootId: BOOT, startTicks: 1001 }, view)).toBe(false);
    expect(isAlive({ pid, bootId: BOOT, startTicks: 999 }, view)).toBe(false);
    expect(isAlive({ pid, bootId: OTHER_BOOT, startTicks: 1000 }, view)).toBe(false);
  });

  it('a zombie (Z or X) → dead; a thread id (Tgid ≠ pid) → dead', () => {
    const proc = madeUpProc();
    const pid = pidOf(startSleeper());
    const view = procView(proc.root);
    for (const state of ['Z', 'X']) {
      proc.process(pid, { ticks: 7, state });
      expect(isAlive({ pid, bootId: BOOT, startTicks: 7 }, view)).toBe(false);
    }
    proc.process(pid, { ticks: 7, tgid: process.pid });
    expect(isAlive({ pid, bootId: BOOT, startTicks: 7 }, view)).toBe(false);
    proc.process(pid, { ticks: 7 });
    expect(isAlive({ pid, bootId: BOOT, startTicks: 7 }, view)).toBe(true);
  });

  it('a gone pid → dead, whatever its /proc entry still says', async () => {
    const proc = madeUpProc();
    const pid = await gonePid();
    proc.process(pid, { ticks: 7 });
    expect(isAlive({ pid, bootId: BOOT, startTicks: 7 }, procView(proc.root))).toBe(false);
  });

  it('no stat for a live pid (hidepid) → only the pid is checked, within the same boot', () => {
    const proc = madeUpProc();
    const hidden = procView(proc.root);
    expect(isAlive({ pid: process.pid, bootId: BOOT, startTicks: 12345 }, hidden)).toBe(true);
    expect(isAlive({ pid: process.pid, bootId: OTHER_BOOT, startTicks: 12345 }, hidden)).toBe(false);
    // An owner written there is pid-only, with the boot it was written in.
    expect(identityOf(process.pid, hidden)).toEqual({ pid: process.pid, bootId: `pid-only:${BOOT}`, startTicks: null });
    // …and with the stat there, the start time decides again.
    proc.process(process.pid, { ticks: 99 });
    expect(isAlive({ pid: process.pid, bootId: BOOT, startTicks: 12345 }, hidden)).toBe(false);
    expect(isAlive({ pid: process.pid, bootId: BOOT, startTicks: 99 }, hidden)).toBe(true);
  });

  it('a row without identity (written before 4.2) → dead, even for a live pid; pid 0 and negative pids → dead', () => {
    const proc = madeUpProc();
    proc.process(process.pid, { ticks: 5 });
    const view = procView(proc.root);
    expect(isAlive({ pid: process.pid, bootId: null, startTicks: null }, view)).toBe(false);
    for (const pid of [0, -1, -process.pid]) {
      expect(isAlive({ pid, bootId: BOOT, startTicks: 5 }, view)).toBe(false);
      expect(isAlive({ pid, bootId: PID_ONLY, startTicks: null }, view)).toBe(false);
    }
  });
});

describe('where there is no /proc: the pid, and the boot where the system names it (SPEC §3: macOS, Windows)', () => {
  it('no /proc and no boot id (Windows) → the identity is pid-only, and the pid alone decides', async () => {
    const noProc = procView(null);
    const me = identityOf(process.pid, noProc);
    expect(me).toEqual({ pid: process.pid, bootId: 'pid-only', startTicks: null });
    expect(isAlive(me, noProc)).toBe(true);
    expect(isAlive(me)).toBe(true); // read where /proc answers: still the pid alone
    const gone = { pid: await gonePid(), bootId: PID_ONLY, startTicks: null };
    expect(isAlive(gone, noProc)).toBe(false);
    // A full identity judged where /proc can't answer: only the pid is checked.
    expect(isAlive({ pid: process.pid, bootId: BOOT, startTicks: 1 }, noProc)).toBe(true);
  });

  it('macOS: the owner records the boot session; a live pid of that boot → alive, of another boot → dead', async () => {
    const mac = procView(null, () => BOOT);
    const me = identityOf(process.pid, mac);
    expect(me).toEqual({ pid: process.pid, bootId: `pid-only:${BOOT}`, startTicks: null });
    expect(isAlive(me, mac)).toBe(true);
    // The same pid after a restart is some other process: the boot differs, so the owner is dead.
    expect(
      isAlive(
        me,
        procView(null, () => OTHER_BOOT),
      ),
    ).toBe(false);
    expect(isAlive({ ...me, bootId: `pid-only:${OTHER_BOOT}` }, mac)).toBe(false);
    // A gone pid is dead in its own boot too.
    expect(isAlive({ pid: await gonePid(), bootId: `pid-only:${BOOT}`, startTicks: null }, mac)).toBe(false);
    // Where the boot can't be told now, the pid decides, as for a plain pid-only owner.
    expect(isAlive(me, procView(null))).toBe(true);
  });

  it('the boot session is read on macOS from sysctl kern.bootsessionuuid, once; elsewhere not at all', () => {
    const calls: string[] = [];
    const uuid = '3E4D5C6B-7A89-4B0C-9D1E-2F3A4B5C6D7E';
    const read = bootSessionReader('darwin', (file, args) => {
      calls.push([file, ...args].join(' '));
      return `${uuid.toLowerCase()}\n`;
    });
    expect(read()).toBe(uuid);
    expect(read()).toBe(uuid);
    expect(calls).toEqual(['/usr/sbin/sysctl -n kern.bootsessionuuid']);
    const notMac = bootSessionReader('linux', () => {
      throw new Error('not asked on Linux: /proc has the boot id');
    });
    expect(notMac()).toBeNull();
    expect(bootSessionReader('win32', () => uuid)()).toBeNull();
  });

  it('a sysctl that fails or answers something else → no boot session (the pid decides), never a made-up one', () => {
    expect(
      bootSessionReader('darwin', () => {
        throw Object.assign(new Error('sysctl: unknown oid'), { status: 1 });
      })(),
    ).toBeNull();
    expect(bootSessionReader('darwin', () => '\n')()).toBeNull();
    expect(bootSessionReader('darwin', () => 'kern.bootsessionuuid: unknown')()).toBeNull();
  });

  it('this machine’s own identity is the one its platform gives', () => {
    const me = identityOf();
    if (HAS_PROC) expect(me.startTicks).toBeGreaterThan(0);
    else if (process.platform === 'darwin') expect(me.bootId).toMatch(/^pid-only:[0-9A-F-]{36}$/);
    else expect(me).toEqual({ pid: process.pid, bootId: PID_ONLY, startTicks: null });
    expect(isAlive(me)).toBe(true);
  });
});

describe('a pid of another user (SPEC §3)', () => {
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

describe.runIf(needs(HAS_PROC, PROC, 'the liveness rule on this machine’s own /proc'))(
  'is the owner alive? on this machine’s /proc (SPEC §3)',
  () => {
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
      await waitUntil(() => !pidExists(owner.pid), 'the child to be reaped');
      expect(isAlive(owner)).toBe(false);
    });

    it('an unreaped zombie child → dead', async () => {
      // The shell starts a short sleep and becomes a long one, which never reaps it: a zombie.
      const parent = spawn('sh', ['-c', 'sleep 0.05 & echo $!; exec sleep 30'], {
        stdio: ['ignore', 'pipe', 'ignore'],
      });
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
  },
);
