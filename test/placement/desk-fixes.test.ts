import { expect, it, onTestFinished } from 'vitest';
import { writeSession } from '../../src/store/session.ts';
import type { LineRowView } from '../../src/api/contract.ts';
import { SYSTEM_CLOCK } from '../../src/platform/clock.ts';
import { confirmImport } from '../../src/documents/import.ts';
import { identityOf } from '../../src/identity/owner.ts';
import { loadCatalogue } from '../../src/catalogue/load.ts';
import { openStore } from '../../src/store/open.ts';
import { bytes, files } from '../helpers/catalogue-files.ts';
import { cliJson } from '../helpers/cli.ts';
import { bsx, file } from '../helpers/documents.ts';
import { serviceFor } from '../helpers/service.ts';
import { dumpRows } from '../helpers/store-builder.ts';
import { describeEachStore, newStoreLocation } from '../helpers/stores.ts';

/**
 * Issue 25, points 1 and 3: a colour fix keeps the line's item; a hand placement that would move lines a
 * remembered placement had placed, or cross item types, says so and waits for a confirmation.
 */

const BOOKKEEPING = ['undo_step', 'undo_change', 'undo_step_catalogue', 'undo_step_desk'];

/** The PAB report's shape: 4073 in several colours, 6141 and 4070 in the catalogue, colour 4 not. */
async function desk() {
  const storePath = newStoreLocation();
  const store = await openStore(storePath);
  onTestFinished(() => store.close());
  const { db } = store;
  await loadCatalogue(
    db,
    storePath,
    [
      {
        name: 'parts.csv',
        content: bytes(
          files.rebrickableParts([
            { no: '6141', name: 'Plate Round 1 x 1' },
            { no: '4070', name: 'Brick, Special 1 x 1 with Headlight' },
            { no: '3003', name: 'Brick 2 x 2' },
          ]),
        ),
      },
      {
        name: 'colors.txt',
        content: bytes(
          files.bricklinkColoursTab([
            { id: 1, name: 'White' },
            { id: 5, name: 'Red' },
            { id: 68, name: 'Dark Orange' },
          ]),
        ),
      },
    ],
    { type: 'P', me: identityOf(), clock: SYSTEM_CLOCK },
  );
  const pab = confirmImport(
    writeSession(db),
    {
      file: file(
        'PAB.bsx',
        bsx([
          { no: '4073', name: 'Plate, Round 1 x 1', colour: 1, colourName: 'White' },
          { no: '4073', name: 'Plate, Round 1 x 1', colour: 4, colourName: 'Orange' },
          { no: 'ovr032', type: 'M', name: 'Overalls with Pocket', colour: 0 },
        ]),
      ),
    },
    SYSTEM_CLOCK,
  )[0];
  const market = confirmImport(
    writeSession(db),
    {
      file: file('Market Street.bsx', bsx([{ no: '4073', name: 'Plate, Round 1 x 1', colour: 5, colourName: 'Red' }])),
    },
    SYSTEM_CLOCK,
  )[0];
  const service = serviceFor(db, storePath);
  const linesOf = async (orderId: number) => {
    const r = await service.call('lines.list', { orderId });
    if (!r.ok) throw new Error(r.error.message);
    return r.value as readonly LineRowView[];
  };
  return { db, storePath, service, linesOf, pab: pab?.order.id ?? 0, market: market?.order.id ?? 0 };
}

describeEachStore(
  'a colour fix keeps the item; a placement that moves remembered lines asks first (issue 25, point 1)',
  () => {
    it('a line unplaced only for its colour shows its item, and a colour chosen places it there', async () => {
      const d = await desk();
      const [white] = await d.linesOf(d.pab);
      // Staff teach 4073 → 6141: the other 4073 lines follow (each in its own colour), orange stays unplaced for its colour.
      expect(
        await d.service.call('lines.place', { lineId: white?.id ?? 0, type: 'P', no: '6141', colourId: null }),
      ).toMatchObject({ ok: true, value: { remembered: { item: 'added' }, others: { placed: 1, moved: 0 } } });
      const [, orange] = await d.linesOf(d.pab);
      expect(orange).toMatchObject({
        placed: null,
        reason: { code: 'colour-not-in-catalogue' },
        itemFound: { type: 'P', no: '6141', name: 'Plate Round 1 x 1' },
      });
      // Other lines have no item found.
      expect((await d.linesOf(d.pab))[2]?.itemFound).toBeNull();
      const placed = await d.service.call('lines.place', {
        lineId: orange?.id ?? 0,
        type: 'P',
        no: '6141',
        colourId: 68,
      });
      expect(placed).toMatchObject({
        ok: true,
        value: {
          line: { placed: { no: '6141', colour: 68, colourName: 'Dark Orange' } },
          remembered: { item: 'kept', colour: 'added' },
          others: { placed: 0, moved: 0, unplaced: 0 },
        },
      });
      expect((await d.linesOf(d.market))[0]?.placed).toMatchObject({ no: '6141', colour: 5 });
    });

    it('moving the lines a remembered placement placed says how many, in which orders, and waits for a confirmation', async () => {
      const d = await desk();
      const [white, orange] = await d.linesOf(d.pab);
      await d.service.call('lines.place', { lineId: white?.id ?? 0, type: 'P', no: '6141', colourId: null });
      const before = dumpRows(d.db, BOOKKEEPING);
      const history = await d.service.call('history.state', {});
      // Orange (unplaced for its colour) put on 4070: the memory 4073 → 6141 would change and move Market Street's line.
      const unconfirmed = await d.service.call('lines.place', {
        lineId: orange?.id ?? 0,
        type: 'P',
        no: '4070',
        colourId: 68,
      });
      expect(unconfirmed).toMatchObject({
        ok: false,
        error: { code: 'needs-acknowledgement', confirm: 'moves-lines' },
      });
      expect(unconfirmed.ok ? '' : unconfirmed.error.message).toBe(
        'Placing line 2 on P 4070 will also move 1 line in order Market Street.bsx from P 6141, where the placement ' +
          'remembered for 4073 had put them. Confirm to place them all; one Undo takes it back.',
      );
      expect(dumpRows(d.db, BOOKKEEPING)).toEqual(before);
      expect(await d.service.call('history.state', {})).toEqual(history);

      const confirmed = await d.service.call('lines.place', {
        lineId: orange?.id ?? 0,
        type: 'P',
        no: '4070',
        colourId: 68,
        confirm: ['moves-lines'],
      });
      expect(confirmed).toMatchObject({ ok: true, value: { remembered: { item: 'changed' }, others: { moved: 1 } } });
      expect((await d.linesOf(d.market))[0]?.placed).toMatchObject({ no: '4070', colour: 5 });
      // One Undo takes it all back (the taught names' change counter, which tells suggestion indexes they are stale, moves on).
      const state = await d.service.call('history.state', {});
      const undo = state.ok ? (state.value as { undo: { id: number } | null }).undo : null;
      await d.service.call('history.undo', { expectedStep: undo?.id ?? 0 });
      const data = (rows: Record<string, unknown[]>) => ({
        ...rows,
        setting: rows['setting']?.filter((r) => (r as { key: string }).key !== 'taught.generation'),
      });
      expect(data(dumpRows(d.db, BOOKKEEPING))).toEqual(data(before));
    });

    it('the CLI asks for --confirm in the same words', async () => {
      const d = await desk();
      const [white, orange] = await d.linesOf(d.pab);
      await d.service.call('lines.place', { lineId: white?.id ?? 0, type: 'P', no: '6141', colourId: null });
      d.db.close();
      const args = ['--db', d.storePath, 'place', String(orange?.id), 'P', '4070', '--colour', '68'];
      const refused = await cliJson(args);
      expect(refused.code).toBe(1);
      expect(refused.json.error).toMatchObject({ code: 'needs-acknowledgement' });
      const done = await cliJson([...args, '--confirm', 'moves-lines']);
      expect(done.code).toBe(0);
      expect(done.json.others).toMatchObject({ moved: 1 });
    });
  },
);

describeEachStore('items of another type, names taught by accident (issue 25, point 3)', () => {
  it('a placement across item types asks first, and teaches no name', async () => {
    const d = await desk();
    const minifig = (await d.linesOf(d.pab))[2];
    const before = dumpRows(d.db, BOOKKEEPING);
    const refused = await d.service.call('lines.place', {
      lineId: minifig?.id ?? 0,
      type: 'P',
      no: '3003',
      colourId: null,
    });
    expect(refused).toMatchObject({ ok: false, error: { code: 'needs-acknowledgement', confirm: 'other-type' } });
    expect(refused.ok ? '' : refused.error.message).toBe(
      'Line 3 gives a minifig (M ovr032) and P 3003 is a part: confirm to place it there anyway. Its name will not be taught to P 3003.',
    );
    expect(dumpRows(d.db, BOOKKEEPING)).toEqual(before);
    const placed = await d.service.call('lines.place', {
      lineId: minifig?.id ?? 0,
      type: 'P',
      no: '3003',
      colourId: null,
      confirm: ['other-type'],
    });
    expect(placed).toMatchObject({
      ok: true,
      value: { line: { placed: { type: 'P', no: '3003' } }, remembered: { name: null } },
    });
    expect(d.db.prepare('SELECT count(*) FROM taught_name').pluck().get()).toBe(0);
    // The same type teaches as before.
    const [white] = await d.linesOf(d.pab);
    expect(
      await d.service.call('lines.place', { lineId: white?.id ?? 0, type: 'P', no: '6141', colourId: null }),
    ).toMatchObject({
      ok: true,
      value: { remembered: { name: 'added' } },
    });
  });
});
