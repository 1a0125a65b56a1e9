import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { cliJson, finished } from '../helpers/cli.ts';
import { bsx } from '../helpers/documents.ts';
import { insertColour, storeWithCatalogue } from '../helpers/store-builder.ts';
import { describeEachStore } from '../helpers/stores.ts';
import { tempDir } from '../helpers/temp.ts';
import { spawnWorker } from '../helpers/workers.ts';

/**
 * Issue 60 §5 (SPEC §14): a fix made on the command line names the line (or the memory) as the command
 * read it, as the screens name what they showed. Another desk's fix between that read and the write is
 * not overwritten: the command is refused with `line-changed` naming that desk, and writes nothing.
 *
 * The race is made, not hoped for: the second command runs in a process of its own, paused before its
 * writing call (test/workers/cli-paused.ts) — after the reads it makes first — while the first command
 * runs to its end; then it goes on.
 */
describeEachStore('two CLIs fixing one line at once (issue 60 §5)', () => {
  async function shop() {
    const { db, dbPath } = await storeWithCatalogue(); // 3001, 3003; colour 5 Red
    insertColour(db, { id: 11, name: 'Black' });
    const doc = path.join(tempDir(), 'shop.bsx');
    // Neither number nor colour 77 is in the catalogue: each line is placed by hand, and remembered.
    fs.writeFileSync(
      doc,
      bsx([
        { no: 'old1', colour: 77 },
        { no: 'old2', colour: 5 },
      ]),
    );
    const imported = await cliJson(['--db', dbPath, 'import', doc]);
    expect(imported.code, imported.stderr).toBe(0);
    const orderId = imported.json.imports[0].order.id as number;
    const lines = async () => (await cliJson(['--db', dbPath, 'lines', String(orderId)])).json.lines as any[];
    const [colourLine = 0, itemLine = 0] = (await lines()).map((l) => l.id as number);
    const run = (desk: string, ...args: string[]) => cliJson(['--db', dbPath, '--desk', desk, ...args]);
    const history = async () =>
      (await cliJson(['--db', dbPath, 'history'])).json.steps as { id: number; desk: string; kind: string }[];
    const memories = async () => (await cliJson(['--db', dbPath, 'placements'])).json;
    return { dbPath, lines, colourLine, itemLine, run, history, memories };
  }

  /**
   * `second` (desk CLI-2) runs until it comes to its writing call `call`, after what it reads first; there
   * it waits while `first` (another CLI, to its end) changes what it read; then it goes on.
   */
  async function between(
    dbPath: string,
    second: { call: string; args: readonly string[] },
    first: () => Promise<{ code: number | null; stderr: string }>,
  ) {
    const child = spawnWorker(
      'cli-paused',
      [second.call, '--json', '--db', dbPath, '--desk', 'CLI-2', ...second.args],
      {
        stdio: ['pipe', 'pipe', 'pipe'],
      },
    );
    const done = finished(child);
    const paused = new Promise<boolean>((resolve) => {
      let stderr = '';
      child.stderr?.on('data', (d: Buffer) => {
        stderr += d.toString();
        if (stderr.includes('\npaused\n')) resolve(true);
      });
      void done.then(() => resolve(false));
    });
    expect(await paused, 'the second command came to its write').toBe(true);
    const one = await first();
    expect(one.code, one.stderr).toBe(0);
    child.stdin?.end('go on\n');
    const out = await done;
    return { ...out, json: JSON.parse(out.stdout) };
  }

  /** As the screens are told (SPEC §14), on the command line: exit 1, the message on stderr, the error in --json. */
  function refusedNaming(r: { code: number | null; stderr: string; json: any }, step: { id: number }) {
    expect(r.code, r.stderr).toBe(1);
    expect(r.json.error.code).toBe('line-changed');
    expect(r.json.error.message).toContain('by the desk "CLI-1"');
    expect(r.json.error.message).toContain(`step ${step.id}`);
    expect(r.json.error.message).toContain('Nothing was changed');
    expect(r.stderr).toContain(`brick-work: ${r.json.error.message}\n`);
  }

  it("place: the line placed by another CLI since this one read it is line-changed, naming that desk; the other's fix stands", async () => {
    const { dbPath, lines, itemLine, run, history, memories } = await shop();
    const stepsBefore = (await history()).length;
    let first: any;
    const second = await between(
      dbPath,
      { call: 'lines.place', args: ['place', String(itemLine), 'P', '3003'] },
      async () => (first = await run('CLI-1', 'place', String(itemLine), 'P', '3001')),
    );
    refusedNaming(second, first.json.step);
    expect(second.json.error.message).toContain('it is on P 3001 in Red now');
    // The line, the memory and the history are CLI-1's alone.
    expect((await lines()).find((l) => l.id === itemLine)?.placed).toMatchObject({ type: 'P', no: '3001', colour: 5 });
    expect((await memories()).items).toMatchObject([{ given: { no: 'old2' }, item: { no: '3001' } }]);
    const steps = await history();
    expect(steps).toHaveLength(stepsBefore + 1);
    expect(steps[0]).toMatchObject({ desk: 'CLI-1', kind: 'hand-placement' });
  });

  it("a colour fix (place --colour): another CLI's colour since it was read is line-changed, naming that desk", async () => {
    const { dbPath, lines, colourLine, run, memories } = await shop();
    let first: any;
    const second = await between(
      dbPath,
      { call: 'lines.place', args: ['place', String(colourLine), 'P', '3001', '--colour', '11'] },
      async () => (first = await run('CLI-1', 'place', String(colourLine), 'P', '3001', '--colour', '5')),
    );
    refusedNaming(second, first.json.step);
    expect(second.json.error.message).toContain('it is on P 3001 in Red now');
    expect((await lines()).find((l) => l.id === colourLine)?.placed).toMatchObject({ no: '3001', colour: 5 });
    // The colour remembered for colour 77 is CLI-1's.
    expect((await memories()).colours).toMatchObject([{ given: { colourId: 77 }, colour: { id: 5 } }]);
  });

  it('placements forget: a memory another CLI changed since it was read is line-changed, naming that desk; the change stands', async () => {
    const { dbPath, itemLine, run, history, memories } = await shop();
    expect((await run('CLI-0', 'place', String(itemLine), 'P', '3001')).code).toBe(0); // old2 → P 3001
    const [{ ref }] = (await memories()).items;
    const stepsBefore = (await history()).length;
    let first: any;
    const second = await between(
      dbPath,
      { call: 'placements.forget', args: ['placements', 'forget', ref] },
      async () =>
        // CLI-1 teaches old2 another item meanwhile: the memory gives P 3003.
        (first = await run('CLI-1', 'place', String(itemLine), 'P', '3003')),
    );
    refusedNaming(second, first.json.step);
    expect(second.json.error.message).toContain('it gives P 3003 now');
    expect((await memories()).items).toMatchObject([{ ref, given: { no: 'old2' }, item: { no: '3003' } }]);
    expect(await history()).toHaveLength(stepsBefore + 1);
  });

  it('fixes one after another are each done: each command reads the line, or the memory, as it is when it starts', async () => {
    const { lines, itemLine, colourLine, run, memories } = await shop();
    const placed = await run('CLI-1', 'place', String(itemLine), 'P', '3001');
    expect(placed.code, placed.stderr).toBe(0);
    // Another desk's fix of what the first placed: it reads P 3001, and places it again.
    const again = await run('CLI-2', 'place', String(itemLine), 'P', '3003');
    expect(again.code, again.stderr).toBe(0);
    expect(again.json.line.placed).toMatchObject({ no: '3003', colour: 5 });
    const coloured = await run('CLI-1', 'place', String(colourLine), 'P', '3001', '--colour', '5');
    expect(coloured.code, coloured.stderr).toBe(0);
    const recoloured = await run('CLI-2', 'place', String(colourLine), 'P', '3001', '--colour', '11');
    expect(recoloured.code, recoloured.stderr).toBe(0);
    expect((await lines()).map((l) => [l.placed.no, l.placed.colour])).toEqual([
      ['3001', 11],
      ['3003', 5],
    ]);
    // old2's memory gives P 3003 now, as CLI-2 taught it, and colour 77's Black: forgetting each reads that, and is done.
    const taught = await memories();
    expect(taught.items).toMatchObject([
      { given: { no: 'old2' }, item: { no: '3003' } },
      { given: { no: 'old1' }, item: { no: '3001' } },
    ]);
    expect(taught.colours).toMatchObject([{ given: { colourId: 77 }, colour: { id: 11 } }]);
    for (const ref of [taught.items[0].ref, taught.colours[0].ref]) {
      const forgot = await run('CLI-1', 'placements', 'forget', ref);
      expect(forgot.code, forgot.stderr).toBe(0);
    }
    expect((await memories()).items).toMatchObject([{ given: { no: 'old1' } }]);
    expect((await memories()).colours).toEqual([]);
  });
});
