import { execFileSync } from 'node:child_process';

/**
 * The boot's own id where there is no /proc but the system names the boot without a clock (SPEC §3):
 * macOS's `kern.bootsessionuuid`, new at every boot. Windows gives none such, so there only the pid is
 * checked. A pid-only owner stores it, so a pid that a later boot reused is not taken for the owner.
 */
export type RunProgram = (file: string, args: readonly string[]) => string;

const runProgram: RunProgram = (file, args) =>
  execFileSync(file, [...args], { encoding: 'utf8', timeout: 5_000, stdio: ['ignore', 'pipe', 'ignore'] });

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Asks the system once; the answer can't change while this process lives. */
export function bootSessionReader(
  platform: NodeJS.Platform = process.platform,
  run: RunProgram = runProgram,
): () => string | null {
  let asked = false;
  let answer: string | null = null;
  return () => {
    if (!asked) {
      asked = true;
      answer = platform === 'darwin' ? sysctlBootSession(run) : null;
    }
    return answer;
  };
}

function sysctlBootSession(run: RunProgram): string | null {
  try {
    const id = run('/usr/sbin/sysctl', ['-n', 'kern.bootsessionuuid']).trim();
    return UUID.test(id) ? id.toUpperCase() : null;
  } catch {
    return null; // no such key (an old macOS), or sysctl refused: the pid alone decides
  }
}
