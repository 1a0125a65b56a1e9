import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { describe, expect, it, onTestFinished } from 'vitest';
import { SYSTEM_CLOCK } from '../../src/platform/clock.ts';
import { startWorker } from '../../src/app/job-host.ts';
import { identityOf } from '../../src/identity/owner.ts';
import { readCatalogueJob, requestCatalogueJobCancel } from '../../src/catalogue/catalogue-job.ts';
import { catalogueJobPath } from '../../src/store/catalogue-job-file.ts';
import { loadCatalogue } from '../../src/catalogue/load.ts';
import { readCatalogueFile, type NamedContent } from '../../src/catalogue/read-file.ts';
import {
  PIECE_BYTES,
  ReaderStopped,
  streamFile,
  type FileStream,
  type ReaderThread,
  type StreamMessage,
} from '../../src/catalogue/read-stream.ts';
import type { CatalogueRecord } from '../../src/catalogue/records.ts';
import { ReaderThreadClient } from '../../src/catalogue/reader-thread-client.ts';
import { fromWire, toWire, type WireMessage } from '../../src/catalogue/reader-wire.ts';
import type { ItemType } from '../../src/vocabulary/item-types.ts';
import { ITEM_BATCH } from '../../src/store/catalogue.ts';
import { openStore } from '../../src/store/open.ts';
import { describeEachStore, newStoreLocation } from '../helpers/stores.ts';
import { bytes, files, gzip } from '../helpers/catalogue-files.ts';
import { tempDir } from '../helpers/temp.ts';

/**
 * Issue 24, point 7: a catalogue file read on the reader thread while the job writes what it has read —
 * the same rows, the same messages (lines counted in the whole file), the same refusals, nothing kept of a
 * file that fails, and a load that goes on when the thread stops.
 */

/** A parts list of several pieces, with quoted names (commas, quotes, line ends inside them) and CRLF line ends. */
function bigParts(bad: { at: number; line: string } | null = null): string {
  const parts: { no: string; name: string }[] = [];
  for (let i = 0; parts.length * 40 < PIECE_BYTES * 5; i++) {
    const name =
      i % 97 === 0
        ? `Plate, Round 1 x 1 "Dot" No. ${i}`
        : i % 89 === 0
          ? `Tile 2 x 2 with Print,\nline two ${i}`
          : `Brick 1 x ${i} Ünïcödé`;
    parts.push({ no: `p${String(i).padStart(6, '0')}`, name });
  }
  const lines = files.rebrickableParts(parts).split('\n');
  if (bad !== null) lines.splice(bad.at - 1, 0, bad.line);
  return lines.join('\r\n');
}

/** The reader thread's work on this thread, as the real thread does it. */
function onThisThread(): ReaderThread & { streams: number } {
  const self = {
    streams: 0,
    stream(file: NamedContent, type: ItemType): FileStream {
      self.streams++;
      const messages: StreamMessage[] = [];
      // Through the wire, as the real thread's messages come.
      const read = streamFile(file, type, (m) => {
        const back = fromWire(toWire(m));
        if (back === null) throw new Error('a message did not read back');
        messages.push(back);
      });
      return {
        next: async () => {
          await read;
          const m = messages.shift();
          if (m === undefined) throw new Error('read past the end');
          return m;
        },
        cancel: () => undefined,
      };
    },
  };
  return self;
}

async function messagesOf(content: Uint8Array): Promise<StreamMessage[]> {
  const out: StreamMessage[] = [];
  await streamFile({ name: 'parts.csv', content }, 'P', (m) => out.push(m));
  return out;
}

const byKey = (records: readonly CatalogueRecord[]) =>
  records
    .map((r) => {
      const { nameKey: _, ...rest } = r as CatalogueRecord & { nameKey?: string };
      return rest;
    })
    .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));

async function newStore() {
  const file = path.join(tempDir(), 'brick-work.sqlite');
  const store = await openStore(file);
  onTestFinished(() => store.close());
  return { file, db: store.db };
}

const options = { type: 'P' as const, me: identityOf(), clock: SYSTEM_CLOCK };

describe('reading a catalogue file on the reader thread (issue 24, point 7)', () => {
  it('sends the rows reading it whole gives, piece by piece, each item with its folded name', async () => {
    const text = bigParts();
    const whole = readCatalogueFile({ name: 'parts.csv', content: bytes(text) }, { type: 'P' });
    for (const content of [bytes(text), gzip(text)]) {
      const messages = await messagesOf(content);
      const rows = messages.flatMap((m) => (m.kind === 'rows' ? m.records : []));
      expect(messages.filter((m) => m.kind === 'rows').length).toBeGreaterThan(3);
      expect(byKey(rows)).toEqual(byKey(whole.records));
      expect(messages.at(-1)).toEqual({
        kind: 'end',
        name: 'parts.csv',
        format: whole.format,
        source: whole.source,
        rows: whole.records.length,
      });
      expect(rows.find((r) => r.kind === 'item' && r.no === 'p000097')).toMatchObject({
        name: 'Plate, Round 1 x 1 "Dot" No. 97',
        nameKey: 'plate, round 1 x 1 "dot" no. 97',
      });
    }
    // XML is read whole, then sent in parts.
    const xml = files.bricklinkItemsXml([{ type: 'P', no: '3001', name: 'Brick 2 x 4' }]);
    expect((await messagesOf(bytes(xml))).map((m) => m.kind)).toEqual(['start', 'rows', 'end']);
  });

  it("names a bad row's line in the whole file, whichever piece it is in", async () => {
    const lines = bigParts().split('\r\n').length;
    for (const at of [10, Math.floor(lines * 0.9)]) {
      const text = bigParts({ at, line: ',No number,11,Plastic' });
      let whole: Error | null = null;
      try {
        readCatalogueFile({ name: 'parts.csv', content: bytes(text) }, { type: 'P' });
      } catch (e) {
        whole = e as Error;
      }
      expect(whole?.message).toMatch(new RegExp(`line ${at}\\b`));
      expect((await messagesOf(bytes(text))).at(-1)).toEqual({
        kind: 'error',
        error: { code: 'parse-error', message: whole?.message },
      });
    }
  });

  it('the job writes what the thread reads: the same catalogue as reading first, and nothing of a file with a bad row', async () => {
    const text = bigParts();
    const catalogues: unknown[] = [];
    for (const reader of [undefined, onThisThread()]) {
      const { file, db } = await newStore();
      const result = await loadCatalogue(db, file, [{ name: 'parts.csv', content: bytes(text) }], {
        ...options,
        ...(reader === undefined ? {} : { reader }),
      });
      expect(reader?.streams ?? 1).toBe(1);
      catalogues.push([result.items, result.files, db.prepare('SELECT * FROM catalogue_item ORDER BY item_no').all()]);
      expect(readCatalogueJob(catalogueJobPath(file))).toMatchObject({
        record: { state: 'done', progress: { done: result.items, total: result.items } },
      });
    }
    expect(catalogues[1]).toEqual(catalogues[0]);

    const lines = text.split('\r\n').length;
    const { file, db } = await newStore();
    const bad = bigParts({ at: Math.floor(lines * 0.9), line: ',No number,11,Plastic' });
    await expect(
      loadCatalogue(db, file, [{ name: 'parts.csv', content: bytes(bad) }], { ...options, reader: onThisThread() }),
    ).rejects.toMatchObject({ code: 'parse-error' });
    expect(db.prepare('SELECT count(*) FROM catalogue_item').pluck().get()).toBe(0);
    expect(db.inTransaction).toBe(false);
    expect(readCatalogueJob(catalogueJobPath(file))).toMatchObject({ record: { state: 'failed' } });
  });

  it('stops when staff cancel, keeping nothing of the file', async () => {
    const { file, db } = await newStore();
    const result = await loadCatalogue(db, file, [{ name: 'parts.csv', content: bytes(bigParts()) }], {
      ...options,
      reader: onThisThread(),
      progressEvery: 1000,
      onProgress: ({ done }) => {
        if (done >= 3000) requestCatalogueJobCancel(db, file, SYSTEM_CLOCK);
      },
    });
    expect(result).toMatchObject({ cancelled: true, items: 0 });
    expect(db.prepare('SELECT count(*) FROM catalogue_item').pluck().get()).toBe(0);
    expect(readCatalogueJob(catalogueJobPath(file))).toMatchObject({ record: { state: 'cancelled' } });
  });

  it('a thread that stops mid-file costs nothing: the job reads the file itself, and the next file starts a new thread', async () => {
    const text = bigParts();
    // A thread that stops after its first rows.
    const stopping: ReaderThread = {
      stream(file, type) {
        const inner = onThisThread().stream(file, type);
        let sent = 0;
        return {
          next: async () => {
            if (sent++ === 3) throw new ReaderStopped('stopped');
            return inner.next();
          },
          cancel: () => undefined,
        };
      },
    };
    const { file, db } = await newStore();
    const result = await loadCatalogue(db, file, [{ name: 'parts.csv', content: bytes(text) }], {
      ...options,
      reader: stopping,
    });
    const whole = readCatalogueFile({ name: 'parts.csv', content: bytes(text) }, { type: 'P' });
    expect(result.items).toBe(whole.records.length);
    expect(db.prepare('SELECT count(*) FROM catalogue_item').pluck().get()).toBe(whole.records.length);

    // The real thread: kept between files; ended while it reads, its file fails with ReaderStopped
    // (which the job answers as above), and the next file starts it again.
    const logged: string[] = [];
    const started: Worker[] = [];
    const client = new ReaderThreadClient(
      () => {
        const w = startWorker(new URL('../../src/catalogue/reader-thread.ts', import.meta.url), null);
        started.push(w);
        return w;
      },
      (line) => logged.push(line),
    );
    onTestFinished(() => client.close());
    const readAll = async (s: FileStream) => {
      const records: CatalogueRecord[] = [];
      for (let m = await s.next(); m.kind !== 'end'; m = await s.next())
        if (m.kind === 'rows') records.push(...m.records);
      return records;
    };
    expect(byKey(await readAll(client.stream({ name: 'parts.csv', content: bytes(text) }, 'P')))).toEqual(
      byKey(whole.records),
    );
    await readAll(client.stream({ name: 'parts.csv', content: bytes(text) }, 'P'));
    expect(started).toHaveLength(1);
    const s = client.stream({ name: 'parts.csv', content: bytes(text) }, 'P');
    await s.next();
    await started[0]?.terminate();
    await expect(readAll(s)).rejects.toBeInstanceOf(ReaderStopped);
    expect(logged.join('\n')).toMatch(/reader thread stopped/);
    await readAll(client.stream({ name: 'parts.csv', content: bytes(text) }, 'P'));
    expect(started).toHaveLength(2);
    // The memory a file was passed in serves the next, smaller one: it reads that file only.
    const small = bytes(files.rebrickableParts([{ no: 'z1', name: 'Only' }]));
    expect(byKey(await readAll(client.stream({ name: 'parts.csv', content: small }, 'P')))).toEqual(
      byKey(readCatalogueFile({ name: 'parts.csv', content: small }, { type: 'P' }).records),
    );
  });
});

describe("the reader thread's messages on their way (issue 24, point 7: items as columns)", () => {
  it('read back exactly as sent: rows before items, a missing category, names with quotes, tabs and non-ASCII', () => {
    const records: CatalogueRecord[] = [
      { kind: 'colour', id: 11, name: 'Black', rgb: '05131D' },
      { kind: 'item', type: 'P', no: '3001', name: 'Brick 2 x 4', categoryId: 11, nameKey: 'brick 2 x 4' },
      {
        kind: 'item',
        type: 'S',
        no: '10190-1',
        name: 'Market\tStreet "Ünï"',
        categoryId: null,
        nameKey: 'market street ünï',
      },
      { kind: 'item', type: 'P', no: '', name: '', categoryId: 0, nameKey: '' },
    ];
    const sent: StreamMessage[] = [
      { kind: 'start', estimatedRows: 3 },
      { kind: 'rows', source: 'parts.csv', records, distinctKeys: true },
      { kind: 'rows', source: 'colors.txt', records: records.slice(0, 1), distinctKeys: true },
      { kind: 'end', name: 'parts.csv', format: 'Rebrickable parts.csv', source: 'parts.csv', rows: 3 },
    ];
    for (const m of sent) expect(fromWire(toWire(m))).toEqual(m);
    // The items travel as columns, not as objects.
    const wire = toWire(sent[1] as StreamMessage) as Extract<WireMessage, { kind: 'rows' }>;
    expect(wire.others).toHaveLength(1);
    expect(wire.items?.count).toBe(3);
    // An item without its folded name gets it on the way.
    const unfolded = {
      kind: 'rows',
      source: 's',
      records: [{ ...records[1], nameKey: undefined }],
      distinctKeys: true,
    };
    expect(fromWire(toWire(unfolded as StreamMessage))).toMatchObject({ records: [{ nameKey: 'brick 2 x 4' }] });
  });

  it('a message that does not read back whole (a NUL in a name) is never read wrong: the job reads the file itself', async () => {
    const withNul: StreamMessage = {
      kind: 'rows',
      source: 's',
      records: [{ kind: 'item', type: 'P', no: '1', name: 'a\u0000b', categoryId: null, nameKey: 'a b' }],
      distinctKeys: true,
    };
    expect(fromWire(toWire(withNul))).toBeNull();
    // A thread that sends such a message: the stream ends as a stopped thread's does, and it is logged.
    const logged: string[] = [];
    const client = new ReaderThreadClient(
      () =>
        new Worker(
          `const { parentPort, workerData } = require('node:worker_threads');
           parentPort.on('message', (m) => {
             if (m.type !== 'read') return;
             parentPort.postMessage({ id: m.id, msg: { kind: 'start', estimatedRows: 1 } });
             parentPort.postMessage({ id: m.id, msg: workerData });
           });`,
          { eval: true, workerData: toWire(withNul) },
        ),
      (line) => logged.push(line),
    );
    onTestFinished(() => client.close());
    const stream = client.stream({ name: 'parts.csv', content: bytes('x') }, 'P');
    expect(await stream.next()).toEqual({ kind: 'start', estimatedRows: 1 });
    await expect(stream.next()).rejects.toBeInstanceOf(ReaderStopped);
    expect(logged.join('\n')).toMatch(/did not read back whole/);
  });
});

describeEachStore('a key given twice in a file read on the reader thread (issue 24, point 7)', () => {
  it('merges as reading it first does, within a piece and where two pieces meet', async () => {
    // Where the first two pieces end, to give the second piece's first number to the first piece's last row.
    const text = bigParts();
    const pieces = (
      await (async () => {
        const out: StreamMessage[] = [];
        await streamFile({ name: 'parts.csv', content: bytes(text) }, 'P', (m) => out.push(m));
        return out;
      })()
    ).flatMap((m) => (m.kind === 'rows' ? [m.records] : []));
    const firstPiece = pieces[0] ?? [];
    const lastOfFirst = firstPiece.at(-1) as Extract<CatalogueRecord, { kind: 'item' }>;
    const firstOfSecond = (pieces[1] ?? [])[0] as Extract<CatalogueRecord, { kind: 'item' }>;
    // The two rows go in one statement only if the first piece leaves rows waiting for the next.
    expect(firstPiece.length % ITEM_BATCH).not.toBe(0);
    const [a, b] = (pieces[2] ?? []) as Extract<CatalogueRecord, { kind: 'item' }>[];
    // Same length numbers: the pieces end where they did. The second, in capitals, is the same key.
    const twice = text
      .replace(`${firstOfSecond.no},`, `${lastOfFirst.no.toUpperCase()},`)
      // And a key twice inside a later piece.
      .replace(`${b?.no},`, `${a?.no},`);
    const catalogues: unknown[] = [];
    for (const reader of [undefined, onThisThread()]) {
      const file = newStoreLocation();
      const store = await openStore(file);
      onTestFinished(() => store.close());
      const result = await loadCatalogue(store.db, file, [{ name: 'parts.csv', content: bytes(twice) }], {
        ...options,
        ...(reader === undefined ? {} : { reader }),
      });
      expect(reader?.streams ?? 1).toBe(1);
      const rows = store.db.prepare('SELECT item_no, name, name_key FROM catalogue_item ORDER BY item_no').all();
      catalogues.push([result.items, rows]);
      // The later row of each key won.
      expect(rows).toContainEqual(expect.objectContaining({ item_no: lastOfFirst.no, name: firstOfSecond.name }));
    }
    expect(catalogues[1]).toEqual(catalogues[0]);
  });
});
