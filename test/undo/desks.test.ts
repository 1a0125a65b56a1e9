/**
 * Issue 46, point 1 (SPEC §8): each desk its own Undo. Two desks — two services on two connections to
 * one store, with desk names of their own — as two computers on a shop server (or the app and the CLI
 * named apart on one file) are: a desk's Undo takes back its own newest step, never the other's, and a
 * step the other desk built on since is refused (`step-conflict`) with nothing changed.
 */
import { expect, it, onTestFinished } from 'vitest';
import { openStore } from '../../src/store/open.ts';
import { bytes, files } from '../helpers/catalogue-files.ts';
import { csv, file } from '../helpers/documents.ts';
import { serviceFor } from '../helpers/service.ts';
import { describeEachStore, newStoreLocation } from '../helpers/stores.ts';
import { SYSTEM_CLOCK } from '../../src/platform/clock.ts';
import { identityOf } from '../../src/identity/owner.ts';
import { loadCatalogue } from '../../src/catalogue/load.ts';

type Service = ReturnType<typeof serviceFor>;

async function ok<T>(
  answer: Promise<{ ok: true; value: T } | { ok: false; error: { code: string; message: string } }>,
): Promise<T> {
  const a = await answer;
  if (!a.ok) throw new Error(`${a.error.code}: ${a.error.message}`);
  return a.value;
}

/** Two desks on one store whose catalogue has 3001 and 3002 but not the numbers the documents give. */
async function twoDesks(): Promise<{ a: Service; b: Service; lines: (doc: string) => Promise<number[]> }> {
  const location = newStoreLocation();
  const first = await openStore(location);
  onTestFinished(() => first.close());
  await loadCatalogue(
    first.db,
    location,
    [
      {
        name: 'parts.csv',
        content: bytes(
          files.rebrickableParts([
            { no: '3001', name: 'Brick 2 x 4' },
            { no: '3002', name: 'Brick 2 x 3' },
          ]),
        ),
      },
    ],
    { type: 'P', me: identityOf(), clock: SYSTEM_CLOCK },
  );
  const second = await openStore(location);
  onTestFinished(() => second.close());
  const a = serviceFor(first.db, location, { desk: 'SHOP-1' });
  const b = serviceFor(second.db, location, { desk: 'SHOP-2' });
  const lines = async (doc: string) => {
    const orders = await ok(a.call('orders.list', {}));
    const order = orders.find((o) => o.reference === doc);
    if (order === undefined) throw new Error(`no order ${doc}`);
    return (await ok(a.call('lines.list', { orderId: order.id }))).map((l) => l.id);
  };
  return { a, b, lines };
}

const doc = (name: string) =>
  file(
    name,
    csv(
      ['number', 'name', 'quantity'],
      [
        [`${name}-x1`, 'Unknown part one', 2],
        [`${name}-x2`, 'Unknown part two', 3],
      ],
    ),
  );

describeEachStore('each desk its own Undo (SPEC §8, issue 46)', () => {
  it("a desk's Undo takes back its own newest step and leaves the other desk's fix; each desk's Redo is its own", async () => {
    const { a, b, lines } = await twoDesks();
    await ok(a.call('import.confirm', { file: doc('alpha') }));
    await ok(b.call('import.confirm', { file: doc('beta') }));
    const [betaLine] = await lines('beta');
    await ok(b.call('lines.place', { lineId: betaLine ?? 0, type: 'P', no: '3001', colourId: null }));

    // A's Undo names A's import, though B's steps are newer; B's names B's fix.
    const aState = await ok(a.call('history.state', {}));
    expect(aState.desk).toBe('SHOP-1');
    expect(aState.undo).toMatchObject({ kind: 'import', desk: 'SHOP-1' });
    expect((await ok(b.call('history.state', {}))).undo).toMatchObject({ kind: 'hand-placement', desk: 'SHOP-2' });

    await ok(a.call('history.undo', { expectedStep: aState.undo?.id ?? 0 }));
    const documents = await ok(a.call('documents.list', {}));
    expect(documents.map((d) => [d.key, d.state])).toEqual(
      expect.arrayContaining([
        ['alpha', 'undone'],
        ['beta', 'imported'],
      ]),
    );
    const beta = (
      await ok(b.call('lines.list', { orderId: documents.find((d) => d.key === 'beta')?.orderId ?? 0 }))
    )[0];
    expect(beta?.placed).toMatchObject({ type: 'P', no: '3001' }); // B's fix stays

    // A's Redo puts A's import back; B's new step does not drop it (it is A's to redo).
    await ok(b.call('import.confirm', { file: doc('gamma') }));
    const again = await ok(a.call('history.state', {}));
    expect(again.redo).toMatchObject({ kind: 'import', desk: 'SHOP-1' });
    expect((await ok(b.call('history.state', {}))).redo).toBeNull();
    await ok(a.call('history.redo', { expectedStep: again.redo?.id ?? 0 }));
    expect((await ok(a.call('documents.list', {}))).find((d) => d.key === 'alpha')?.state).toBe('imported');

    // The history lists every desk's steps with their desk, newest first.
    const history = await ok(b.call('history.list', {}));
    expect(history.desk).toBe('SHOP-2');
    expect(history.steps.map((s) => [s.kind, s.desk, s.state])).toEqual([
      ['import', 'SHOP-2', 'done'],
      ['hand-placement', 'SHOP-2', 'done'],
      ['import', 'SHOP-2', 'done'],
      ['import', 'SHOP-1', 'done'],
    ]);
  });

  it('Undo of a step another desk built on is step-conflict, naming that desk and step, and changes nothing', async () => {
    const { a, b, lines } = await twoDesks();
    await ok(a.call('import.confirm', { file: doc('alpha') }));
    const [alphaLine] = await lines('alpha');
    const fix = await ok(b.call('lines.place', { lineId: alphaLine ?? 0, type: 'P', no: '3002', colourId: null }));

    const step = (await ok(a.call('history.state', {}))).undo;
    const refused = await a.call('history.undo', { expectedStep: step?.id ?? 0 });
    expect(refused.ok).toBe(false);
    if (refused.ok) return;
    expect(refused.error.code).toBe('step-conflict');
    expect(refused.error.message).toContain('"SHOP-2"');
    expect(refused.error.message).toContain(`step ${fix.step.id}`);
    // The step it names travels with the refusal: the screens offer to show it in the history.
    expect(refused.error.step).toBe(fix.step.id);
    // Nothing changed: the import stands, B's fix stands, A's Undo still names its import.
    expect((await ok(a.call('documents.list', {}))).map((d) => d.state)).toEqual(['imported']);
    expect(
      (await ok(a.call('lines.list', { orderId: (await ok(a.call('orders.list', {})))[0]?.id ?? 0 })))[0]?.placed,
    ).toMatchObject({ no: '3002' });
    expect((await ok(a.call('history.state', {}))).undo?.id).toBe(step?.id);

    // Once B has undone its fix, A's Undo goes through.
    await ok(b.call('history.undo', { expectedStep: fix.step.id }));
    await ok(a.call('history.undo', { expectedStep: step?.id ?? 0 }));
    expect((await ok(a.call('documents.list', {}))).map((d) => d.state)).toEqual(['undone']);
  });

  it('two desks placing one line they both saw unplaced: one ok, the other line-changed naming the first, nothing written', async () => {
    const { a, b, lines } = await twoDesks();
    await ok(a.call('import.confirm', { file: doc('alpha') }));
    const [lineId = 0] = await lines('alpha');
    const stepsBefore = (await ok(a.call('history.list', {}))).steps.length;
    const first = await ok(a.call('lines.place', { lineId, type: 'P', no: '3001', colourId: null, seen: null }));
    const second = await b.call('lines.place', { lineId, type: 'P', no: '3002', colourId: null, seen: null });
    expect(second.ok).toBe(false);
    if (second.ok) return;
    expect(second.error.code).toBe('line-changed');
    expect(second.error.message).toContain('"SHOP-1"');
    expect(second.error.message).toContain(`step ${first.step.id}`);
    expect(second.error.message).toContain('P 3001');
    // The first desk's placement stands; the second wrote no step.
    const orderId = (await ok(b.call('orders.list', {})))[0]?.id ?? 0;
    expect((await ok(b.call('lines.list', { orderId }))).find((l) => l.id === lineId)?.placed).toMatchObject({
      no: '3001',
    });
    expect((await ok(b.call('history.list', {}))).steps.length).toBe(stepsBefore + 1);
    // Naming what it now shows, the second desk's fix goes through.
    const again = await b.call('lines.place', {
      lineId,
      type: 'P',
      no: '3002',
      colourId: null,
      seen: { type: 'P', no: '3001', colourId: null },
    });
    expect(again.ok).toBe(true);
  });

  it('forgetting a memory another desk changed since it was shown is line-changed, naming that desk, nothing written', async () => {
    const { a, b, lines } = await twoDesks();
    const same = file(
      'same.csv',
      csv(
        ['number', 'name', 'quantity'],
        [
          ['same-1', 'Unknown part', 1],
          ['same-1', 'Unknown part', 2],
        ],
      ),
    );
    await ok(a.call('import.confirm', { file: same }));
    const [first = 0] = await lines('same.csv');
    await ok(a.call('lines.place', { lineId: first, type: 'P', no: '3001', colourId: null }));
    const shown = (await ok(b.call('placements.list', {}))).items[0];
    expect(shown?.item).toMatchObject({ type: 'P', no: '3001' });
    // Desk A corrects the memory meanwhile.
    const moved = await ok(
      a.call('lines.place', { lineId: first, type: 'P', no: '3002', colourId: null, confirm: ['moves-lines'] }),
    );
    const refused = await b.call('placements.forget', {
      kind: 'item',
      id: shown?.id ?? 0,
      seen: { type: 'P', no: '3001' },
    });
    expect(!refused.ok && refused.error.code).toBe('line-changed');
    expect(!refused.ok && refused.error.message).toContain(`"SHOP-1" ("${moved.step.label}", step ${moved.step.id})`);
    expect((await ok(b.call('placements.list', {}))).items[0]?.item).toMatchObject({ no: '3002' });
    // Naming what it gives now, the forget goes through.
    await ok(b.call('placements.forget', { kind: 'item', id: shown?.id ?? 0, seen: { type: 'P', no: '3002' } }));
    expect((await ok(b.call('placements.list', {}))).items).toEqual([]);
  });

  it("taking back an import another desk fixed a line of since it was shown is line-changed, naming that desk; this desk's own fixes and a fresh look let it through", async () => {
    const { a, b, lines } = await twoDesks();
    await ok(a.call('import.confirm', { file: doc('gamma') }));
    const orderId = (await ok(a.call('orders.list', {}))).find((o) => o.reference === 'gamma')?.id ?? 0;
    const [first = 0, second = 0] = await lines('gamma');
    // Desk A shows the order, then fixes a line itself: its own step does not make what it showed stale.
    const shown = (await ok(a.call('orders.get', { orderId }))).documents[0];
    await ok(a.call('lines.place', { lineId: first, type: 'P', no: '3001', colourId: null }));
    // Desk B fixes another line of it meanwhile.
    const fixed = await ok(b.call('lines.place', { lineId: second, type: 'P', no: '3002', colourId: null }));
    const refused = await a.call('documents.takeBack', { documentId: shown?.id ?? 0, seenAt: shown?.historyAt ?? 0 });
    expect(!refused.ok && refused.error.code).toBe('line-changed');
    expect(!refused.ok && refused.error.message).toContain(`"SHOP-2" ("${fixed.step.label}", step ${fixed.step.id})`);
    expect(!refused.ok && refused.error.message).toContain('Nothing was taken back');
    // Nothing written: still imported, B's fix still there, A's Undo still names A's own fix.
    const now = await ok(a.call('orders.get', { orderId }));
    expect(now.documents[0]?.state).toBe('imported');
    expect((await ok(a.call('history.state', {}))).undo?.kind).toBe('hand-placement');
    // Another order's steps never count; a fresh look lets the take-back through.
    await ok(b.call('import.confirm', { file: doc('delta') }));
    await ok(
      a.call('documents.takeBack', { documentId: now.documents[0]?.id ?? 0, seenAt: now.documents[0]?.historyAt ?? 0 }),
    );
    expect((await ok(a.call('orders.get', { orderId }))).documents[0]?.state).toBe('undone');
  });

  it('one desk (both connections named alike): one history, as before', async () => {
    const location = newStoreLocation();
    const first = await openStore(location);
    onTestFinished(() => first.close());
    const second = await openStore(location);
    onTestFinished(() => second.close());
    const a = serviceFor(first.db, location, { desk: 'SHOP-1' });
    const b = serviceFor(second.db, location, { desk: 'SHOP-1' });
    await ok(a.call('import.confirm', { file: doc('alpha') }));
    await ok(b.call('import.confirm', { file: doc('beta') }));
    // A's screen still names A's import: the history moved on under it (step-moved), as with one desk.
    const [newest] = (await ok(a.call('history.list', {}))).steps;
    const moved = await a.call('history.undo', { expectedStep: (newest?.id ?? 0) - 1 });
    expect(!moved.ok && moved.error.code).toBe('step-moved');
    expect((await ok(a.call('history.state', {}))).undo?.id).toBe(newest?.id);
  });
});
