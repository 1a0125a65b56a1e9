/**
 * Reading the README and docs/ as a newcomer would run them (issue 64 §7): their shell blocks split into
 * commands, each command checked against package.json's scripts and the real command line's parser, and
 * their links against the files and headings they point at. Pure functions over text; the test gives them
 * the repository's files, or made-up ones to show they fail.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { COMMANDS } from '../../src/cli/all-commands.ts';
import { UsageError, type Command } from '../../src/cli/command.ts';
import { GLOBAL_OPTIONS, parseCommandLine } from '../../src/cli/run.ts';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** A fenced code block: its language and text, and the line it starts on (1-based, for messages). */
export interface CodeBlock {
  readonly lang: string;
  readonly text: string;
  readonly line: number;
}

export function codeBlocks(markdown: string): CodeBlock[] {
  const blocks: CodeBlock[] = [];
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\S*)\s*$/.exec(lines[i] ?? '');
    if (!open) continue;
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && !/^```\s*$/.test(lines[i] ?? ''); i++) body.push(lines[i] ?? '');
    blocks.push({ lang: open[1] ?? '', text: body.join('\n'), line: start + 1 });
  }
  return blocks;
}

/** The blocks a reader types into a shell. */
export const shellBlocks = (markdown: string): CodeBlock[] =>
  codeBlocks(markdown).filter((b) => ['sh', 'bash', 'shell', 'console'].includes(b.lang));

/**
 * A block's simple commands, each as its words: lines joined where they end in `\`, comments dropped,
 * split at `&&`, `||`, `;` and `|`, quotes taken off as a shell does, and leading `NAME=value`
 * assignments left out. `$(…)` stays inside its word.
 */
export function commandsOf(block: string): string[][] {
  const text = block.replace(/\\\n/g, ' ');
  const commands: string[][] = [];
  let words: string[] = [];
  let word: string | null = null;
  const endWord = () => {
    if (word !== null) words.push(word);
    word = null;
  };
  const endCommand = () => {
    endWord();
    const firstReal = words.findIndex((w) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(w));
    if (firstReal !== -1) commands.push(words.slice(firstReal));
    words = [];
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i] ?? '';
    if (c === '\n' || c === ';') endCommand();
    else if (c === '&' && text[i + 1] === '&') {
      endCommand();
      i++;
    } else if (c === '|') {
      endCommand();
      if (text[i + 1] === '|') i++;
    } else if (c === ' ' || c === '\t') endWord();
    else if (c === '#' && word === null) while (i + 1 < text.length && text[i + 1] !== '\n') i++;
    else if (c === "'") {
      const end = text.indexOf("'", i + 1);
      word = (word ?? '') + text.slice(i + 1, end === -1 ? undefined : end);
      i = end === -1 ? text.length : end;
    } else if (c === '"') {
      let s = '';
      for (i++; i < text.length && text[i] !== '"'; i++) s += text[i] === '\\' ? (text[++i] ?? '') : text[i];
      word = (word ?? '') + s;
    } else if (c === '$' && text[i + 1] === '(') {
      let depth = 0;
      let s = '';
      for (; i < text.length; i++) {
        s += text[i];
        if (text[i] === '(') depth++;
        if (text[i] === ')' && --depth === 0) break;
      }
      word = (word ?? '') + s;
    } else word = (word ?? '') + c;
  }
  endCommand();
  return commands;
}

/** Programs a doc may tell a reader to run that are neither npm nor brick-work: what the check knows of. */
export const OTHER_PROGRAMS = new Set(['brew', 'echo', 'source', 'node', 'psql', 'chmod', 'cp', 'git', 'sqlite3']);

/** npm's own commands a doc may use (those that run a script are checked against package.json). */
const NPM_OWN = new Set(['install', 'i', 'ci', 'rebuild']);

/** The CLI's words after the program: `brick-work …`, `npx brick-work …`, `npm run [--silent] brick-work -- …`. */
export function cliWords(words: readonly string[]): string[] | null {
  if (words[0] === 'brick-work') return words.slice(1);
  if (words[0] === 'npx' && words[1] === 'brick-work') return words.slice(2);
  if (words[0] === 'npm' && (words[1] === 'run' || words[1] === 'run-script')) {
    const rest = words.slice(2).filter((w) => w !== '--silent' && w !== '-s');
    if (rest[0] !== 'brick-work') return null;
    return rest[1] === '--' ? rest.slice(2) : rest.slice(1);
  }
  return null;
}

/** What is wrong with one command as a doc shows it; null when it would run. */
export function commandProblem(words: readonly string[], scripts: Readonly<Record<string, string>>): string | null {
  const shown = words.join(' ');
  const cli = cliWords(words);
  if (cli !== null) {
    if (words[0] === 'npm' && scripts['brick-work'] === undefined)
      return `${shown}: package.json has no script brick-work`;
    try {
      parseCommandLine(cli);
      return null;
    } catch (e) {
      if (e instanceof UsageError) return `${shown}: the command line refuses it (${e.message})`;
      throw e;
    }
  }
  const [program, first, second] = words;
  if (program === 'npm') {
    if (first === 'run' || first === 'run-script') {
      const name = words.slice(2).find((w) => !w.startsWith('-'));
      return name !== undefined && scripts[name] !== undefined ? null : `${shown}: package.json has no script ${name}`;
    }
    if (first === 'test' || first === 'start')
      return scripts[first] !== undefined ? null : `${shown}: no ${first} script`;
    return first !== undefined && NPM_OWN.has(first) ? null : `${shown}: not an npm command the check knows`;
  }
  if (program === 'npx') {
    const bin = second === undefined || first === '--no-install' ? second : first;
    return bin !== undefined && fs.existsSync(path.join(REPO_ROOT, 'node_modules', '.bin', bin))
      ? null
      : `${shown}: npx runs ${bin}, which no installed package provides`;
  }
  return program !== undefined && OTHER_PROGRAMS.has(program)
    ? null
    : `${shown}: ${program} is not a program the check knows (add it to OTHER_PROGRAMS if a reader is meant to run it)`;
}

/** Every problem of every command in a text's shell blocks, each with the line its block starts on. */
export function shellProblems(markdown: string, scripts: Readonly<Record<string, string>>, where: string): string[] {
  return shellBlocks(markdown).flatMap((b) =>
    commandsOf(b.text).flatMap((words) => {
      const problem = commandProblem(words, scripts);
      return problem === null ? [] : [`${where}:${b.line}: ${problem}`];
    }),
  );
}

/** GitHub's anchor for each heading of a text (lower case, punctuation dropped, spaces to hyphens, repeats numbered). */
export function anchorsOf(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  const prose = markdown.replace(/^```[\s\S]*?^```/gm, '');
  for (const m of prose.matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = (m[1] ?? '')
      .replace(/`/g, '')
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
      .replace(/ /g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}

/**
 * Each relative link of a markdown file (`[text](target)`, outside code) that points at no file, or at a
 * heading its file does not have. `read` gives a file's text (null: no such file or folder).
 */
export function linkProblems(
  file: string,
  markdown: string,
  read: (file: string) => { text: string | null } | null,
): string[] {
  const prose = markdown.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');
  const problems: string[] = [];
  for (const m of prose.matchAll(/\]\(([^)\s]+)\)/g)) {
    const target = m[1] ?? '';
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:
    const [pathPart = '', anchor] = target.split('#');
    const to = pathPart === '' ? file : path.posix.normalize(path.posix.join(path.posix.dirname(file), pathPart));
    const found = read(to);
    if (found === null) {
      problems.push(`${file}: ${target}: there is no ${to}`);
      continue;
    }
    if (anchor !== undefined && anchor !== '') {
      if (found.text === null) problems.push(`${file}: ${target}: ${to} is a folder, with no headings`);
      else if (!anchorsOf(found.text).has(anchor)) problems.push(`${file}: ${target}: ${to} has no heading #${anchor}`);
    }
  }
  return problems;
}

/** A command of the command line by the words that name it. */
const commandNamed = (words: string): Command | undefined => COMMANDS.find((c) => c.name.join(' ') === words);

/**
 * The CLI reference's table (docs/cli.md, its "Commands" section): each row's first cell names commands
 * (`name ARGS [--option …]`, several joined by ` · `). Every command it names exists and takes the options
 * it shows, and every command of the command line has a row.
 */
export function referenceProblems(markdown: string): string[] {
  const start = markdown.indexOf('\n## Commands\n');
  if (start === -1) return ['docs/cli.md: no "## Commands" section'];
  const end = markdown.indexOf('\n## ', start + 1);
  const section = markdown.slice(start, end === -1 ? undefined : end);
  const problems: string[] = [];
  const named = new Set<string>();
  for (const row of section.matchAll(/^\|((?:[^|\\]|\\.)*)\|/gm)) {
    for (const part of (row[1] ?? '').matchAll(/`([^`]+)`/g)) {
      const synopsis = part[1] ?? '';
      // The command's name is among its first lower-case words, before any argument or option.
      const words: string[] = [];
      for (const w of synopsis.split(' ')) {
        if (!/^[a-z][a-z-]*$/.test(w)) break;
        words.push(w);
      }
      let command: Command | undefined;
      for (let n = words.length; n > 0 && command === undefined; n--)
        command = commandNamed(words.slice(0, n).join(' '));
      if (command === undefined) {
        problems.push(`docs/cli.md: \`${synopsis}\` names no command`);
        continue;
      }
      named.add(command.name.join(' '));
      for (const option of synopsis.matchAll(/--([a-z][a-z-]*)/g)) {
        const name = option[1] ?? '';
        if (command.options?.[name] === undefined && GLOBAL_OPTIONS[name] === undefined)
          problems.push(`docs/cli.md: \`${synopsis}\`: ${command.name.join(' ')} takes no option --${name}`);
      }
    }
  }
  for (const c of COMMANDS)
    if (!named.has(c.name.join(' '))) problems.push(`docs/cli.md: no row for \`${c.name.join(' ')}\``);
  return problems;
}

/** The repository's folders whose files the docs name in code (`src/store/native.ts`): each must be there. */
const NAMED_FOLDERS = /^(src|test|scripts|docs|electron|renderer|bench|build|\.github|\.ci)\//;

/** Each path a text names in code that names no file or folder (a pattern, `*` or `<ABI>`, is passed over). */
export function pathProblems(file: string, markdown: string, exists: (file: string) => boolean): string[] {
  const named = new Set([...markdown.matchAll(/`([^`\s]+)`/g)].map((m) => m[1] ?? ''));
  return [...named]
    .filter((p) => NAMED_FOLDERS.test(p) && !/[*<>…]/.test(p) && !exists(p))
    .map((p) => `${file}: \`${p}\` names no file`);
}
