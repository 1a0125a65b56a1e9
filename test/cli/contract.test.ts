import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CALL_NAMES, type CallName } from '../../src/api/contract.ts';
import { COMMANDS } from '../../src/cli/all-commands.ts';
import { isShellCommand, type ContractCommand } from '../../src/cli/command.ts';
import { runCli } from '../../src/cli/run.ts';
import { openStore } from '../../src/store/open.ts';
import { CREDENTIALS_ENV, startStandIn } from '../helpers/bricklink-stand-in.ts';
import { csv } from '../helpers/documents.ts';
import { serviceFor } from '../helpers/service.ts';
import { describeEachStore } from '../helpers/stores.ts';
import { tempDir } from '../helpers/temp.ts';

/** Runs the CLI in this process, as `bin/brick-work.js` does, and says which contract calls it made (BRICK_WORK_DEBUG). */
async function run(argv: readonly string[], env: NodeJS.ProcessEnv = {}) {
  let stdout = '';
  let stderr = '';
  const code = await runCli(['--json', ...argv], {
    stdout: (t) => (stdout += t),
    stderr: (t) => (stderr += t),
    env: { BRICK_WORK_DEBUG: '1', ...env },
  });
  const calls = [...stderr.matchAll(/^brick-work: call (\S+)$/gm)].map((m) => m[1] as CallName);
  return { code, json: JSON.parse(stdout) as any, stderr, calls };
}

const named = (words: string) => COMMANDS.find((c) => c.name.join(' ') === words);

describe('the CLI is a third adapter over the contract (SPEC §1, §10)', () => {
  it('every command is a contract command naming its calls, or one of the shell-only commands, each with its reason', () => {
    const shellOnly = COMMANDS.filter(isShellCommand);
    expect(shellOnly.map((c) => c.name.join(' ')).sort()).toEqual([
      'catalogue colours',
      'jobs recover',
      'store copy',
      'store info',
      'store upgrade',
    ]);
    for (const c of shellOnly) expect(c.shellOnly.length, c.name.join(' ')).toBeGreaterThan(40);
    for (const c of COMMANDS.filter((c): c is ContractCommand => !isShellCommand(c))) {
      expect(c.calls.length, c.name.join(' ')).toBeGreaterThan(0);
      for (const call of c.calls) expect(CALL_NAMES, `${c.name.join(' ')} → ${call}`).toContain(call);
    }
  });

  describeEachStore('on a store with a catalogue and an order', (stores) => {
    let dir: string;
    let db: string;
    const made = new Map<string, Set<CallName>>();
    const counted = async (words: string, argv: readonly string[], env: NodeJS.ProcessEnv = {}) => {
      const r = await run(['--db', db, ...argv], env);
      const seen = made.get(words) ?? new Set<CallName>();
      for (const c of r.calls) seen.add(c);
      made.set(words, seen);
      return r;
    };

    beforeAll(async () => {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'brick-work-cli-contract-'));
      db = stores.location();
      fs.writeFileSync(
        path.join(dir, 'parts.csv'),
        csv(
          ['part_num', 'name', 'part_cat_id', 'part_material'],
          [
            ['3001', 'Brick 2 x 4', 11, 'Plastic'],
            ['3003', 'Brick 2 x 2', 11, 'Plastic'],
          ],
        ),
      );
      fs.writeFileSync(
        path.join(dir, 'order.csv'),
        csv(
          ['number', 'name', 'quantity'],
          [
            ['3001', 'Brick 2 x 4', 2],
            ['', 'Brick 2x2 red', 1],
            ['3039', '', 3],
          ],
        ),
      );
    });
    afterAll(() => {
      fs.rmSync(dir, { recursive: true, force: true });
    });

    it('each contract command makes only the calls it names, and the calls of every command cover its declaration', async () => {
      const standIn = await startStandIn(
        { 'P 3039': { name: 'Slope 45 2 x 2' } },
        {
          // The shop's store inventory, for `stock lookup`: past a preview's first page (200 lines), so that
          // its preview is asked whole, page by page, as a shop's thousands of lots are.
          inventory: [
            { inventory_id: 1, item: { no: '3001', type: 'PART' }, color_id: 5, quantity: 2, new_or_used: 'N' },
            ...Array.from({ length: 200 }, (_, i) => ({
              inventory_id: 2 + i,
              item: { no: '3001', type: 'PART' },
              color_id: 5,
              quantity: 1,
              new_or_used: 'N',
              remarks: `Z${i}`,
            })),
          ],
        },
      ); // stops when the test ends
      const env = { ...CREDENTIALS_ENV, BRICKLINK_API_URL: standIn.url };
      expect((await counted('catalogue import', ['catalogue', 'import', path.join(dir, 'parts.csv')])).code).toBe(0);
      expect((await counted('import', ['import', path.join(dir, 'order.csv'), '--dry-run'])).code).toBe(0);
      // A preview brings its first 200 lines; --json has them all, asked page by page.
      const long = path.join(dir, 'long.csv');
      fs.writeFileSync(
        long,
        csv(
          ['number', 'name', 'quantity'],
          Array.from({ length: 260 }, (_, i) => ['3001', 'Brick 2 x 4', i + 1]),
        ),
      );
      const dry = await counted('import', ['import', long, '--dry-run']);
      expect(dry.code).toBe(0);
      expect(dry.json.documents[0].lines).toHaveLength(260);
      expect((await counted('import', ['import', path.join(dir, 'order.csv')])).code).toBe(0);
      expect((await counted('orders', ['orders'])).code).toBe(0);
      expect((await counted('compare', ['compare', 'order:1', path.join(dir, 'order.csv')])).code).toBe(0);
      expect((await counted('compare', ['compare', 'order:1', path.join(dir, 'order.csv'), '--as', 'csv'])).code).toBe(
        0,
      );
      expect((await counted('lines', ['lines', '1', '--unplaced'])).code).toBe(0);
      expect((await counted('suggest', ['suggest', 'Brick 2 x 2'])).code).toBe(0);
      expect((await counted('suggest', ['suggest', '--number', '300'])).code).toBe(0);
      expect((await counted('place', ['place', '2', 'P', '3003'])).code).toBe(0);
      expect((await counted('placements', ['placements'])).code).toBe(0);
      expect((await counted('placements forget', ['placements', 'forget', 'I1'])).code).toBe(0);
      expect((await counted('placements forget', ['placements', 'forget', '1'])).code).toBe(0); // the name taught
      expect((await counted('undo', ['undo'])).code).toBe(0);
      expect((await counted('redo', ['redo'])).code).toBe(0);
      expect((await counted('history', ['history'])).code).toBe(0);
      expect((await counted('documents', ['documents', '1'])).code).toBe(0);
      expect((await counted('export summary', ['export', 'summary'])).code).toBe(0);
      // The catalogue is Rebrickable's parts.csv and nothing loaded gives their BrickLink numbers (issue 43).
      const refused = await counted('export bricklink', ['export', 'bricklink', '1']);
      expect(refused.json.error.code).toBe('needs-acknowledgement');
      const accepted = await counted('export bricklink', [
        'export',
        'bricklink',
        '1',
        '--accept',
        'no-bricklink-number',
      ]);
      expect(accepted.code, accepted.stderr).toBe(0);
      expect(accepted.json.leftOut.map((l: { reason: string }) => l.reason)).toContain('no-number');
      const rebrickable = await counted('export rebrickable', ['export', 'rebrickable', '1']);
      expect(rebrickable.code, rebrickable.stderr).toBe(0);
      expect(rebrickable.json.content).toMatch(/^Part,Color,Quantity\r\n/);
      const lookup = await counted('catalogue lookup', ['catalogue', 'lookup'], env);
      expect(lookup.code, lookup.stderr).toBe(0);
      expect(lookup.json).toMatchObject({ calls: 1, found: 1, outcome: 'done' });
      expect((await counted('jobs', ['jobs'])).code).toBe(0);
      expect((await counted('jobs cancel', ['jobs', 'cancel', '1'])).json.error.code).toBe('not-found'); // done: nothing to cancel
      expect((await counted('jobs cancel', ['jobs', 'cancel', 'catalogue'])).json.error.code).toBe('not-found');
      expect((await counted('settings', ['settings'])).code).toBe(0);
      expect((await counted('settings', ['settings', 'currency', 'EUR'])).code).toBe(0);
      expect((await counted('take-back', ['take-back', '1'])).code).toBe(0);
      // The stock (SPEC §16): a list of more lots than a preview's first page, its bins in a column.
      const stock = path.join(dir, 'stock.csv');
      fs.writeFileSync(
        stock,
        csv(
          ['Part', 'Color ID', 'Qty', 'Bin'],
          Array.from({ length: 260 }, (_, i) => ['3001', 5, i + 1, `A${i + 1}`]),
        ),
      );
      const stockDry = await counted('stock import', ['stock', 'import', stock, '--location-from', 'Bin', '--dry-run']);
      expect(stockDry.json.documents[0].lines).toHaveLength(260);
      expect((await counted('stock import', ['stock', 'import', stock, '--location-from', 'Bin'])).code).toBe(0);
      expect((await counted('stock info', ['stock', 'info'])).json.stock).toMatchObject({ lots: 260, locations: 260 });
      // Issue 65 put-away: an order against the stock, its files into a folder; the stock from BrickLink's API.
      // Order 1 was taken back above: nothing to put away, as its exports say.
      expect((await counted('put-away', ['put-away', '1'])).json.error.code).toBe('already-undone');
      const received = path.join(dir, 'received.csv');
      fs.writeFileSync(received, csv(['number', 'name', 'quantity'], [['3001', 'Brick 2 x 4', 4]]));
      expect((await counted('import', ['import', received])).code).toBe(0);
      const receivedOrder = (await counted('orders', ['orders'])).json.orders.find(
        (o: { reference: string }) => o.reference === 'received.csv',
      );
      const putAwayOut = path.join(dir, 'put-away');
      fs.mkdirSync(putAwayOut);
      const putAwayFiles = await counted('put-away', [
        'put-away',
        String(receivedOrder.id),
        '--export',
        'bricklink',
        '--out',
        putAwayOut,
        '--accept',
        'no-bricklink-number',
      ]);
      expect(putAwayFiles.code, putAwayFiles.stderr).toBe(0);
      // The stock holds 3001 in red in 260 bins; the line gives no colour: a new lot, where the item's other lots are.
      expect(putAwayFiles.json.entries).toMatchObject([{ kind: 'new', location: 'A1', from: 'item' }]);
      expect(putAwayFiles.json.export.note).toContain('Nothing is sent to BrickLink');
      const stockLookup = await counted('stock lookup', ['stock', 'lookup'], env);
      expect(stockLookup.code, stockLookup.stderr).toBe(0);
      expect(stockLookup.json.stock).toMatchObject({ lots: 201, lotsWithLotId: 201 });
      // The pick list: of order 1, taken back above (nothing to pick, as its exports say), and of the order
      // received, its CSV, and marks of entries its walk has not.
      expect((await counted('pick', ['pick', '1'])).json.error.code).toBe('already-undone');
      const picking = String(receivedOrder.id);
      expect((await counted('pick', ['pick', picking])).code).toBe(0);
      expect((await counted('pick', ['pick', picking, '--csv', path.join(dir, 'pick.csv')])).code).toBe(0);
      expect((await counted('pick', ['pick', picking, '--mark', '1:1'])).json.error.code).toBe('not-found');
      expect((await counted('pick', ['pick', picking, '--unmark', '1:1'])).json.error.code).toBe('not-found');

      for (const command of COMMANDS) {
        if (isShellCommand(command)) continue;
        const words = command.name.join(' ');
        const seen = [...(made.get(words) ?? [])];
        expect(seen.length, `${words} was run and made a contract call`).toBeGreaterThan(0);
        expect([...command.calls].sort(), words).toEqual(seen.sort());
      }
    });

    it("prints the contract's own views: what `lines`, `orders` and `documents` print is what the service answers", async () => {
      const store = await openStore(db, { readOnly: true });
      try {
        const service = serviceFor(store.db, db);
        const answer = async (name: CallName, args: unknown) => {
          const r = await service.call(name, args);
          if (!r.ok) throw new Error(r.error.message);
          return r.value;
        };
        expect((await run(['--db', db, 'lines', '1'])).json.lines).toEqual(await answer('lines.list', { orderId: 1 }));
        expect((await run(['--db', db, 'orders'])).json.orders).toEqual(await answer('orders.list', {}));
        const documents = (await run(['--db', db, 'documents'])).json.documents;
        // SPEC §10 names the order `order`: printed beside the view's `orderId`, nothing else added.
        expect(documents.map(({ order, ...view }: any) => (expect(order).toBe(view.orderId), view))).toEqual(
          await answer('documents.list', {}),
        );
        expect((await run(['--db', db, 'placements'])).json.items.map(({ ref: _, ...v }: any) => v)).toEqual(
          ((await answer('placements.list', {})) as any).items,
        );
      } finally {
        store.close();
      }
    });

    it("refuses bad arguments with the contract's own checks, naming them as typed, before the store is touched", async () => {
      const fresh = path.join(tempDir(), 'brick-work.sqlite');
      for (const [argv, named] of [
        [['lines', '0'], 'ORDER_ID'],
        [['place', 'x', 'P', '3001'], 'LINE_ID'],
        [['place', '1', 'PART', '3001'], 'TYPE'],
        // Commands that read what they fix first (issue 60 §5) check the write's arguments before that read.
        [['place', '1', 'P', '3001', '--colour', 'red'], '--colour'],
        [['placements', 'forget', '0'], 'ID'],
        [['undo', '--step', 'newest'], '--step'],
        [['import', path.join(dir, 'order.csv'), '--order', '-3'], '--order'],
        [['suggest', 'x'.repeat(201)], 'NAME'],
      ] as const) {
        const r = await run(['--db', fresh, ...argv]);
        expect(r.code, argv.join(' ')).toBe(2);
        expect(r.json.error.code).toBe('invalid-argument');
        expect(r.json.error.message).toContain(named);
      }
      expect(fs.existsSync(fresh)).toBe(false);
    });
  });

  it('names the shell-only commands and what each is for', () => {
    expect(named('store info')).toMatchObject({ shellOnly: expect.stringContaining('any version') });
    expect(named('jobs recover')).toMatchObject({ shellOnly: expect.stringContaining('recover') });
  });
});
