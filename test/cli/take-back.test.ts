import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, cliJson } from '../helpers/cli.ts';
import { bsx, orderXml } from '../helpers/documents.ts';
import { tempDir } from '../helpers/temp.ts';

function files() {
  const dir = tempDir();
  const store = path.join(dir, 'brick-work.sqlite');
  const market = path.join(dir, 'Market Street.bsx');
  fs.writeFileSync(market, bsx([{ no: '3001', qty: 2 }]));
  const orders = path.join(dir, 'orders.xml');
  fs.writeFileSync(
    orders,
    orderXml([
      { id: '42', lines: [{ no: '3001' }] },
      { id: '43', lines: [{ no: '3003' }, { no: '3020' }] },
    ]),
  );
  return { store, market, orders };
}

describe('brick-work take-back and documents (SPEC §10)', () => {
  it('take-back --json prints the step; documents --json lists each document with its state; undo names the take-back', async () => {
    const { store, market, orders } = files();
    expect((await cliJson(['--db', store, 'import', market])).code).toBe(0);
    expect((await cliJson(['--db', store, 'import', orders])).code).toBe(0);

    const listed = await cliJson(['--db', store, 'documents']);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.json.documents).toEqual([
      expect.objectContaining({
        id: 1,
        key: 'Market Street.bsx',
        order: 1,
        state: 'imported',
        importedAt: expect.any(String),
        undoneAt: null,
        sameFile: [],
      }),
      expect.objectContaining({
        id: 2,
        key: 'bricklink-order:42',
        order: 2,
        state: 'imported',
        undoneAt: null,
        sameFile: [expect.objectContaining({ id: 3 })],
      }),
      expect.objectContaining({
        id: 3,
        key: 'bricklink-order:43',
        order: 3,
        state: 'imported',
        undoneAt: null,
        sameFile: [expect.objectContaining({ id: 2 })],
      }),
    ]);

    // The older import, while a newer one stays.
    const taken = await cliJson(['--db', store, 'take-back', '1']);
    expect(taken.code, taken.stderr).toBe(0);
    expect(taken.json).toMatchObject({
      step: { id: 3, kind: 'take-back', label: 'Take back of Market Street.bsx', desk: expect.any(String) },
      takenBack: [{ id: 1, key: 'Market Street.bsx', order: 1, state: 'undone', undoneAt: expect.any(String) }],
      stillImported: [],
    });
    const one = await cliJson(['--db', store, 'documents', '1']);
    expect(one.json.documents).toEqual([
      expect.objectContaining({ id: 1, state: 'undone', undoneAt: taken.json.takenBack[0].undoneAt }),
    ]);
    const ordersList = await cliJson(['--db', store, 'orders']);
    expect(ordersList.json.orders.map((o: { id: number; state: string }) => [o.id, o.state])).toEqual([
      [1, 'undone'],
      [2, 'open'],
      [3, 'open'],
    ]);
    const text = await cli(['--db', store, 'orders']);
    expect(text.stdout).toMatch(
      /Market Street\.bsx .*taken back on \d{4}-\d\d-\d\d \d\d:\d\d; import the file again to revive it/,
    );

    // Its BrickLink export is refused, saying when; the summary leaves it out.
    const exported = await cliJson(['--db', store, 'export', 'bricklink', '1']);
    expect(exported.code).toBe(1);
    expect(exported.json.error.code).toBe('already-undone');
    expect(exported.json.error.message).toContain(
      `was taken back on ${String(taken.json.takenBack[0].undoneAt).slice(0, 16).replace('T', ' ')}`,
    );
    const summary = await cliJson(['--db', store, 'export', 'summary']);
    expect(summary.json.content.trim().split('\n')).toHaveLength(1 + 2); // the header and two orders
    expect(summary.json.content).not.toContain('Market Street');

    // Taking it back twice is refused; nothing changes.
    const again = await cliJson(['--db', store, 'take-back', '1']);
    expect(again.code).toBe(1);
    expect(again.json.error.code).toBe('already-undone');
    expect(again.stderr).toContain('Market Street.bsx was already taken back on');

    const undone = await cliJson(['--db', store, 'undo']);
    expect(undone.json).toEqual({
      step: { id: 3, kind: 'take-back', label: 'Take back of Market Street.bsx', desk: expect.any(String) },
    });
    expect((await cliJson(['--db', store, 'documents', '1'])).json.documents[0]).toMatchObject({
      state: 'imported',
      undoneAt: null,
    });
  });

  it('take-back --whole-file takes back every document of a multi-ORDER file, which then imports again whole', async () => {
    const { store, orders } = files();
    await cliJson(['--db', store, 'import', orders]);

    const alone = await cli(['--db', store, 'take-back', '1']);
    expect(alone.code, alone.stderr).toBe(0);
    expect(alone.stdout).toContain('orders.xml also brought in bricklink-order:43 (order 43, #2), still imported');
    expect(alone.stdout).toContain('brick-work take-back 2 --whole-file');
    const refused = await cliJson(['--db', store, 'import', orders]);
    expect(refused.json.error).toMatchObject({ code: 'duplicate-document' });
    expect(refused.json.error.message).toContain(
      'take that import back first (Take back this import, or brick-work take-back 2)',
    );
    await cliJson(['--db', store, 'undo']);

    const whole = await cliJson(['--db', store, 'take-back', '2', '--whole-file']);
    expect(whole.code, whole.stderr).toBe(0);
    expect(whole.json).toMatchObject({
      step: { kind: 'take-back', label: 'Take back of 2 documents from orders.xml' },
      stillImported: [],
    });
    expect(whole.json.takenBack.map((d: { id: number; state: string }) => [d.id, d.state])).toEqual([
      [1, 'undone'],
      [2, 'undone'],
    ]);
    const revived = await cliJson(['--db', store, 'import', orders]);
    expect(revived.code, revived.stderr).toBe(0);
    expect(
      revived.json.imports.map((i: { document: { id: number }; revived: boolean }) => [i.document.id, i.revived]),
    ).toEqual([
      [1, true],
      [2, true],
    ]);
  });

  it('take-back needs a document number', async () => {
    const { store } = files();
    expect((await cli(['--db', store, 'take-back'])).code).toBe(2);
    expect((await cli(['--db', store, 'take-back', 'x'])).code).toBe(2);
    expect((await cliJson(['--db', store, 'take-back', '7'])).json.error.code).toBe('not-found');
  });
});
