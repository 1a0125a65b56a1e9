import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../src/cli/run.ts';
import { files } from './helpers/catalogue-files.ts';
import {
  cliWords,
  commandsOf,
  linkProblems,
  pathProblems,
  referenceProblems,
  shellBlocks,
  shellProblems,
} from './helpers/doc-check.ts';
import { REPO_ROOT } from './helpers/cli.ts';
import { orderXml } from './helpers/documents.ts';
import { tempDir } from './helpers/temp.ts';

/**
 * Every command the README and docs/ show runs (issue 64 §7), as `npm run check` holds the code: the
 * scripts they name exist, the command line takes each `brick-work` command as written, the README's
 * first morning runs step by step against a store made here, and every relative link finds its file and
 * heading. In the quick lane: it reads text and runs the CLI in this process.
 */

const read = (file: string) => fs.readFileSync(path.join(REPO_ROOT, file), 'utf8');
const scripts = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts;
const DOCS = fs
  .readdirSync(path.join(REPO_ROOT, 'docs'))
  .filter((f) => f.endsWith('.md'))
  .map((f) => `docs/${f}`);

/** A file's text by its path from the repository's root; a folder has none; null: nothing there. */
function inRepo(file: string): { text: string | null } | null {
  const at = path.join(REPO_ROOT, file);
  if (!fs.existsSync(at)) return null;
  return { text: fs.statSync(at).isDirectory() ? null : fs.readFileSync(at, 'utf8') };
}

describe('the README is the front door', () => {
  it('is short: under about 150 lines', () => {
    expect(read('README.md').split('\n').length).toBeLessThanOrEqual(150);
  });

  it('starts its set-up with the two commands, the test one exactly as CI runs it', () => {
    const blocks = shellBlocks(read('README.md')).map((b) => b.text);
    expect(blocks.slice(0, 2)).toEqual(['npm install && npm start', 'npm ci && npm run check && npm test']);
    expect(read('.ci/run')).toMatch(/\nnpm ci && npm run check && npm test\n$/);
  });

  it('says plainly what pictures are fetched, from where, what is kept and for how long, and how to turn them off', () => {
    const readme = read('README.md');
    const pictures = readme.slice(readme.indexOf('\n## Pictures\n'), readme.indexOf('\n## Where to read more\n'));
    for (const said of [
      'https://img.bricklink.com',
      'https://cdn.rebrickable.com',
      'beside the store, not in it',
      '90 days',
      '500 MB',
      '*Settings* →',
      'npx brick-work settings pictures off',
    ])
      expect(pictures).toContain(said);
  });
});

describe('every command in the README and docs/ runs', () => {
  it('names only scripts package.json has, and only commands and options the command line takes', () => {
    const problems = ['README.md', ...DOCS].flatMap((file) => shellProblems(read(file), scripts, file));
    expect(problems).toEqual([]);
    // The check read them: the README's two commands and its morning at least.
    expect(shellBlocks(read('README.md')).flatMap((b) => commandsOf(b.text)).length).toBeGreaterThan(12);
  });

  it('has a row in the CLI reference for every command, with only the options each takes', () => {
    expect(referenceProblems(read('docs/cli.md'))).toEqual([]);
  });

  it('links only to files and headings that exist', () => {
    const problems = ['README.md', ...DOCS].flatMap((file) => linkProblems(file, read(file), inRepo));
    expect(problems).toEqual([]);
  });

  it('names only files that are there', () => {
    const exists = (file: string) => fs.existsSync(path.join(REPO_ROOT, file));
    expect(['README.md', ...DOCS].flatMap((file) => pathProblems(file, read(file), exists))).toEqual([]);
    expect(pathProblems('MADE-UP.md', 'see `docs/mac-first-run.md` and `src/*.ts`', exists)).toEqual([
      'MADE-UP.md: `docs/mac-first-run.md` names no file',
    ]);
  });

  it('the README’s first morning from a shell runs, step by step, on a store with the files it names', async () => {
    const dir = tempDir('brick-work-readme-');
    // The files the README names, as BrickLink gives them: its catalogue downloads and an order.
    fs.writeFileSync(
      path.join(dir, 'Parts.txt'),
      files.bricklinkItemsTab([
        { no: '3001', name: 'Brick 2 x 4' },
        { no: '3023', name: 'Plate 1 x 2', category: 26 },
        { no: '32028', name: 'Plate, Modified 1 x 2 with Door Rail', category: 26 },
      ]),
    );
    fs.writeFileSync(
      path.join(dir, 'colors.txt'),
      files.bricklinkColoursTab([
        { id: 5, name: 'Red' },
        { id: 11, name: 'Black' },
      ]),
    );
    fs.writeFileSync(
      path.join(dir, 'categories.txt'),
      files.bricklinkCategoriesTab([
        { id: 5, name: 'Brick' },
        { id: 26, name: 'Plate' },
      ]),
    );
    // Its second lot names a number the catalogue lacks: the line the morning fixes by hand.
    fs.writeFileSync(
      path.join(dir, 'orders.xml'),
      orderXml([
        {
          id: '28632481',
          buyer: 'brickfan',
          lines: [
            { no: '3001', colour: 5, qty: 4, price: '0.120' },
            { no: '32028b', colour: 11, qty: 2, price: '0.050' },
          ],
        },
      ]),
    );
    const env = { BRICK_WORK_DB: path.join(dir, 'shop.sqlite') };
    const run = async (argv: readonly string[]) => {
      let stdout = '';
      let stderr = '';
      const code = await runCli(argv, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), env });
      return { code, stdout, stderr };
    };

    // Every README block made only of brick-work commands (the morning, then pictures off), in order.
    const steps = shellBlocks(read('README.md'))
      .map((b) => commandsOf(b.text).map(cliWords))
      .filter((cs): cs is string[][] => cs.length > 0 && cs.every((c) => c !== null))
      .flat();
    expect(steps.length).toBeGreaterThanOrEqual(10);
    const was = process.cwd();
    process.chdir(dir); // the README names the files as a reader in their folder would
    try {
      for (const argv of steps) {
        const r = await run(argv);
        expect(r.code, `brick-work ${argv.join(' ')}\n${r.stderr}`).toBe(0);
      }
    } finally {
      process.chdir(was);
    }

    // What the steps did is what the README says they do.
    const json = async (...argv: string[]) => JSON.parse((await run(['--json', ...argv])).stdout) as any;
    const suggest = steps.find((s) => s[0] === 'suggest');
    const place = steps.find((s) => s[0] === 'place');
    expect((await json(...suggest!)).suggestions[0]).toMatchObject({ no: '32028' });
    const line = (await json('lines', '1')).lines.find((l: { id: number }) => l.id === Number(place![1]));
    expect(line).toMatchObject({ given: { no: '32028b' }, placed: { no: '32028' } });
    const exported = fs.readFileSync(path.join(dir, 'order-1.xml'), 'utf8');
    expect(exported).toContain('<ITEMID>32028</ITEMID>');
    expect(exported).toContain('<ITEMID>3001</ITEMID>');
    expect((await run(['settings', 'pictures'])).stdout).toBe('off\n');
  });
});

describe('the check fails where a doc is wrong', () => {
  const madeUp = [
    '```sh',
    'npm install && npm run no-such-script',
    'npx brick-work orderz',
    'npx brick-work import orders.xml --dry-runn',
    'npm run --silent brick-work -- lines',
    'brick-work settings pictures off # fine',
    'FOO=1 npm start',
    'curl -O https://example.com/brick-work.tgz',
    '```',
  ].join('\n');

  it('names a script that does not exist, a verb or option the command line does not take, a program it does not know', () => {
    const problems = shellProblems(madeUp, scripts, 'MADE-UP.md');
    expect(problems).toHaveLength(5);
    expect(problems[0]).toMatch(/MADE-UP\.md:1: npm run no-such-script: package\.json has no script no-such-script/);
    expect(problems[1]).toMatch(/npx brick-work orderz: the command line refuses it \(unknown command: orderz\)/);
    expect(problems[2]).toMatch(/--dry-runn/);
    expect(problems[3]).toMatch(/lines: the command line refuses it \(usage: brick-work lines ORDER_ID/);
    expect(problems[4]).toMatch(/curl is not a program the check knows/);
  });

  it('names a link to a file that is not there, and to a heading its file does not have', () => {
    const text = [
      '# Made up',
      '',
      '[ok](docs/cli.md#commands) [ok too](#made-up) [web](https://example.com) `[in code](nowhere.md)`',
      '[gone](docs/nowhere.md) [no heading](docs/cli.md#no-such-heading) [here](#nor-here)',
    ].join('\n');
    expect(linkProblems('README.md', text, (f) => (f === 'README.md' ? { text } : inRepo(f)))).toEqual([
      'README.md: docs/nowhere.md: there is no docs/nowhere.md',
      'README.md: docs/cli.md#no-such-heading: docs/cli.md has no heading #no-such-heading',
      'README.md: #nor-here: README.md has no heading #nor-here',
    ]);
  });

  it('names a reference row for a command that does not exist, an option it does not take, and a command left out', () => {
    const reference = read('docs/cli.md')
      .replace('| `orders` |', '| `orderz` |')
      .replace('`history [--limit N]`', '`history [--limit N] [--all]`');
    expect(referenceProblems(reference)).toEqual([
      'docs/cli.md: `orderz` names no command',
      'docs/cli.md: `history [--limit N] [--all]`: history takes no option --all',
      'docs/cli.md: no row for `orders`',
    ]);
  });
});
