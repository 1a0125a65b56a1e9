import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JsonReader, type JsonHandler, type JsonLimits } from '../../src/text/json-stream.ts';
import { refusalOf } from '../helpers/refusal.ts';

/**
 * The JSON reader of catalogue files (issue 62): what it tells, built into one value again, is what
 * `JSON.parse` gives, wherever the text is cut into pieces; what nests too deep and a token too long are
 * too-big, broken JSON a parse-error, each with its line and column.
 */

const LIMITS: JsonLimits = { maxDepth: 64, maxToken: 1024 * 1024 };

/** A handler that builds what it is told into one value, as `JSON.parse` would. */
function building(): JsonHandler & { value(): unknown } {
  let root: unknown;
  const open: { container: Record<string, unknown> | unknown[]; key: string }[] = [];
  const add = (v: unknown) => {
    const top = open.at(-1);
    if (top === undefined) root = v;
    else if (Array.isArray(top.container)) top.container.push(v);
    else Object.defineProperty(top.container, top.key, { value: v, enumerable: true, writable: true });
  };
  return {
    openObject() {
      const o: Record<string, unknown> = {};
      add(o);
      open.push({ container: o, key: '' });
    },
    openArray() {
      const a: unknown[] = [];
      add(a);
      open.push({ container: a, key: '' });
    },
    close() {
      open.pop();
    },
    key(k) {
      const top = open.at(-1);
      if (top !== undefined) top.key = k;
    },
    scalar: add,
    value: () => root,
  };
}

/** `text` read in the pieces `cuts` makes of it. */
function readInPieces(text: string, cuts: readonly number[], limits: JsonLimits = LIMITS): unknown {
  const handler = building();
  const reader = new JsonReader('colours.json', handler, limits);
  let from = 0;
  for (const cut of [...cuts].sort((a, b) => a - b)) {
    reader.write(text.slice(from, Math.max(from, cut)));
    from = Math.max(from, cut);
  }
  reader.write(text.slice(from));
  reader.end();
  return handler.value();
}

describe('the JSON reader of catalogue files (issue 62)', () => {
  it('tells what JSON.parse gives, wherever the text is cut', () => {
    const text =
      '{"count": 2, "results": [\r\n {"id": -1.5e3, "name": "Tr\\u00e9s \\"Dark\\" \\\\ Red", "ok": true},\n' +
      '  {"id": 0, "name": "", "none": null, "list": [[], {}, [1, [2, [3]]]], "__proto__": false}\r ]}  ';
    const expected = JSON.parse(text);
    for (let cut = 0; cut <= text.length; cut++) expect(readInPieces(text, [cut]), `cut at ${cut}`).toEqual(expected);
    fc.assert(
      fc.property(
        fc.jsonValue({ maxDepth: 6 }).map((v) => JSON.stringify(v, null, 1)),
        fc.array(fc.nat()),
        (json, cuts) => {
          expect(
            readInPieces(
              json,
              cuts.map((c) => c % (json.length + 1)),
            ),
          ).toEqual(JSON.parse(json));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('nesting past the depth is too-big at the first bracket too deep, however the text goes on', () => {
    const deep = `${'['.repeat(10)}${']'.repeat(10)}`;
    expect(readInPieces(deep, [], { ...LIMITS, maxDepth: 10 })).toEqual(JSON.parse(deep));
    const tooDeep = refusalOf(() =>
      readInPieces(`\n  ${'['.repeat(1_000_000)}`, [5, 100], { ...LIMITS, maxDepth: 10 }),
    );
    expect(tooDeep.code).toBe('too-big');
    expect(tooDeep.message).toBe(
      'colours.json, line 2, column 13: the JSON nests more than 10 levels deep here; brick-work reads no deeper (no file it reads nests more than a few)',
    );
  });

  it('a string or number longer than the limit is refused, whole or in pieces', () => {
    const limits = { ...LIMITS, maxToken: 100 };
    expect(readInPieces(`["${'a'.repeat(98)}"]`, [50], limits)).toEqual(['a'.repeat(98)]);
    for (const text of [`["${'a'.repeat(200)}"]`, `[${'1'.repeat(200)}]`]) {
      for (const cuts of [[], [10, 20, 30, 150]]) {
        const r = refusalOf(() => readInPieces(text, cuts, limits));
        expect(r.code).toBe('too-big');
        expect(r.message).toMatch(
          /^colours\.json, line 1, column 2: a (string|number) of the JSON is longer than 100 characters/,
        );
      }
    }
    // A string never closed is refused once it passes the limit, not held to the file's end.
    const reader = new JsonReader('colours.json', building(), limits);
    reader.write('["');
    expect(refusalOf(() => reader.write('a'.repeat(200))).message).toContain('longer than 100 characters');
  });

  it('broken JSON says where and what, in words', () => {
    const cases: [string, string][] = [
      ['{"a": 1,}', 'line 1, column 9: found "}" where the JSON needs a member name in quotes'],
      ['{"a" 1}', 'line 1, column 6: found "1" where the JSON needs ":"'],
      ['[1, 2\n  3]', 'line 2, column 3: found "3" where the JSON needs "," or "]"'],
      ['[tru]', 'line 1, column 2: "tru" is not a JSON value'],
      ['[01]', 'line 1, column 2: "01" is not a JSON value'],
      ['{"a": [1, 2', 'line 1, column 12: the file ends before its JSON does: it is cut short'],
      ['["abc', 'line 1, column 2: the file ends inside a string of its JSON: it is cut short'],
      ['[1] [2]', 'line 1, column 5: there is more after the end of the JSON'],
      ['["a\u0001"]', 'line 1, column 2: a string of the JSON holds a control character or a bad escape'],
      ['[1,\u0000]', 'line 1, column 4: a control character (U+0000) is in the JSON where no text belongs'],
    ];
    for (const [text, said] of cases) {
      expect(refusalOf(() => readInPieces(text, [])).message, text).toContain(`colours.json, ${said}`);
    }
  });
});
