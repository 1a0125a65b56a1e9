import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from './helpers/cli.ts';
import { needs, NEEDS_CHROMIUM, NEEDS_POSTGRES } from './helpers/needs.ts';
import { findProgram, HOMEBREW_BINS, NEEDS_FAKETIME, workingFaketime } from './helpers/programs.ts';
import { tempDir } from './helpers/temp.ts';

/** Every .ts file under `dir`. */
function sources(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) =>
      e.isDirectory() ? sources(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : [],
    );
}

// Issue 27: a skipped test says why in the run's output, never silently.
describe('skipped tests', () => {
  it('every conditional test goes through needs(), which names the test and what it lacks', () => {
    const silent: string[] = [];
    for (const file of sources(path.join(REPO_ROOT, 'test'))) {
      const text = fs.readFileSync(file, 'utf8');
      for (const m of text.matchAll(/\.(runIf|skipIf)\(\s*([^\n]{0,40})/g))
        if (!m[2]?.startsWith('needs(')) silent.push(`${path.relative(REPO_ROOT, file)}: .${m[1]}(${m[2]}`);
      for (const m of text.matchAll(/\b(it|describe|test)\.(skip|todo)\(/g))
        silent.push(`${path.relative(REPO_ROOT, file)}: ${m[0]}`);
    }
    expect(silent).toEqual([]);
  });

  it('needs() says what is missing, for which test, and lets the test run when nothing is', () => {
    const said: string[] = [];
    const warn = console.warn;
    console.warn = (line: string) => said.push(line);
    try {
      expect(needs(false, 'a thing this machine lacks', 'a test')).toBe(false);
      expect(needs(true, 'a thing it has', 'another test')).toBe(true);
    } finally {
      console.warn = warn;
    }
    expect(said).toEqual(['skipped: a test — it needs a thing this machine lacks']);
  });

  it('in CI a missing PostgreSQL or Chromium fails, naming what is missing; elsewhere it is a skip that says why', () => {
    const ci = { CI: 'true' };
    for (const what of [NEEDS_POSTGRES, NEEDS_CHROMIUM]) {
      expect(() => needs(false, what, 'a server test', ci)).toThrow(`a server test needs ${what}, which CI must have`);
      expect(needs(true, what, 'a server test', ci)).toBe(true);
    }
    // What CI may lack (the shared data, root) is still a skip there.
    const warn = console.warn;
    console.warn = () => {};
    try {
      expect(needs(false, 'the PAB inventory in ../shared/data', 'a data test', ci)).toBe(false);
      expect(needs(false, NEEDS_POSTGRES, 'a server test', {})).toBe(false);
    } finally {
      console.warn = warn;
    }
  });
});

// Issue 44: on a Mac the tests find Homebrew's programs even where an IDE starts them without its PATH.
describe('the programs a test needs', () => {
  it('are found on the PATH, else in Homebrew’s folders; a file that is not executable is not a program', () => {
    const dir = tempDir();
    const program = path.join(dir, 'faketime');
    fs.writeFileSync(program, '#!/bin/sh\n', { mode: 0o755 });
    fs.writeFileSync(path.join(dir, 'not-a-program'), 'text', { mode: 0o644 });
    expect(findProgram('faketime', { PATH: `/nowhere${path.delimiter}${dir}` })).toBe(program);
    expect(findProgram('not-a-program', { PATH: dir })).toBeNull();
    expect(findProgram('brick-work-no-such-program', {})).toBeNull();
    expect(HOMEBREW_BINS).toEqual(['/opt/homebrew/bin', '/usr/local/bin']);
  });

  // Issue 63 §1: macOS's SIP strips faketime's library from the system's own programs, which then run as if it
  // worked; the check runs node, as the tests do, and asks it the time.
  it('faketime counts only where it moves node’s clock: one that runs the program with its clock untouched does not', () => {
    const dir = tempDir();
    const standIn = path.join(dir, 'faketime');
    // Runs what it is given, the clock untouched: as a Mac runs /usr/bin/true under faketime.
    fs.writeFileSync(standIn, '#!/bin/sh\nshift 2\nexec "$@"\n', { mode: 0o755 });
    expect(workingFaketime(standIn)).toBeNull();
    expect(workingFaketime(path.join(dir, 'gone'))).toBeNull();
    expect(workingFaketime(null)).toBeNull();
  });

  const faketime = findProgram('faketime');
  it.runIf(needs(faketime !== null, NEEDS_FAKETIME, 'the faketime check on a real faketime'))(
    'a real faketime, which moves node’s clock, counts',
    () => {
      expect(workingFaketime(faketime)).toBe(faketime);
    },
  );
});
