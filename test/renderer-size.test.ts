import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from './helpers/cli.ts';

/** Every React component (a function named with a capital) of the screens, with its length in lines. */
function components(): { name: string; lines: number }[] {
  const dir = path.join(REPO_ROOT, 'renderer');
  const files = fs
    .readdirSync(dir, { recursive: true })
    .map(String)
    .filter((f) => f.endsWith('.tsx'));
  const found: { name: string; lines: number }[] = [];
  for (const f of files) {
    const text = fs.readFileSync(path.join(dir, f), 'utf8');
    const source = ts.createSourceFile(f, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
    const visit = (node: ts.Node) => {
      if (ts.isFunctionDeclaration(node) && node.name && /^[A-Z]/.test(node.name.text)) {
        const start = source.getLineAndCharacterOfPosition(node.getStart()).line;
        const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
        found.push({ name: `${f}: ${node.name.text}`, lines: end - start + 1 });
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
}

// Issue 27, point 4: screens a newcomer can read — no component longer than 120 lines.
describe('the screens', () => {
  it('are made of components of at most 120 lines, each named for what a worker sees', () => {
    const all = components();
    expect(all.length).toBeGreaterThan(30);
    expect(all.filter((c) => c.lines > 120)).toEqual([]);
  });
});
