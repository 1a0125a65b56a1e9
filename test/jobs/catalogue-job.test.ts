import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { SYSTEM_CLOCK } from '../../src/platform/clock.ts';
import { BrickWorkError } from '../../src/vocabulary/errors.ts';
import { identityOf, type OwnerIdentity } from '../../src/identity/owner.ts';
import {
  CatalogueJob,
  catalogueJobStatus,
  readCatalogueJob,
  requestCatalogueJobCancel,
} from '../../src/catalogue/catalogue-job.ts';
import { catalogueJobPath } from '../../src/store/catalogue-job-file.ts';
import { openStore } from '../../src/store/open.ts';
import { tempDir } from '../helpers/temp.ts';
import { exited, lines, spawnWorker } from '../helpers/workers.ts';
import { anotherLife } from '../helpers/owners.ts';
import { serviceFor } from '../helpers/service.ts';
import { orphanedLoad } from '../../src/api/handlers/catalogue.ts';

const clock = SYSTEM_CLOCK;

async function setUp(name = 'brick-work.sqlite') {
  const storePath = path.join(tempDir(), name);
  const store = await openStore(storePath);
  onTestFinished(() => store.close());
  return { storePath, db: store.db, file: catalogueJobPath(storePath) };
}

function staleRecord(owner: OwnerIdentity) {
  return {
    state: 'running',
    kind: 'catalogue-load',
    owner,
    progress: { done: 10, total: 100 },
    error: null,
    startedAt: 'x',
    updatedAt: 'x',
  };
}

describe('catalogue-job.json (SPEC §4)', () => {
  it('lives beside the store, named after a store that is not brick-work.sqlite', () => {
    expect(catalogueJobPath('/d/brick-work.sqlite')).toBe('/d/catalogue-job.json');
    expect(catalogueJobPath('/d/shop.db')).toBe('/d/shop.db.catalogue-job.json');
  });

  it('records the job, its owner and progress; a stale running state with a dead owner does not block', async () => {
    const { storePath, db, file } = await setUp('shop.db');
    const dead = anotherLife(identityOf(), -1);
    fs.writeFileSync(file, JSON.stringify(staleRecord(dead)));
    expect(catalogueJobStatus(db, storePath)).toMatchObject({ alive: false, record: { state: 'running' } });

    const { job, warning } = CatalogueJob.start(
      db,
      storePath,
      'catalogue-load',
      { files: ['parts.csv'] },
      { me: identityOf(), clock },
    );
    expect(warning).toBeNull();
    expect(job.progress({ done: 5, total: 50 })).toBe(true);
    expect(readCatalogueJob(file)).toMatchObject({
      status: 'ok',
      record: { state: 'running', owner: identityOf(), progress: { done: 5, total: 50 } },
    });
    expect(job.finish('done')).toBe(true);
    expect(readCatalogueJob(file)).toMatchObject({ status: 'ok', record: { state: 'done' } });
    // A finished job does not block the next one.
    CatalogueJob.start(db, storePath, 'catalogue-load', {}, { me: identityOf(), clock });
  });

  it('a load whose loader is gone is shown as failed at once, in true words — never as running, never as taken up again (issue 45)', async () => {
    const { storePath, db, file } = await setUp();
    fs.writeFileSync(
      file,
      JSON.stringify({ ...staleRecord(anotherLife(identityOf(), -1)), detail: { files: ['parts.csv'] } }),
    );
    const status = await serviceFor(db, storePath).call('catalogue.status', {});
    const said = orphanedLoad(`another brick-work process (pid ${anotherLife(identityOf(), -1).pid})`);
    expect(status.ok && status.value.job).toEqual(
      expect.objectContaining({ state: 'failed', alive: false, error: said, files: ['parts.csv'] }),
    );
    expect(said).toMatch(/never taken up again by itself\. Load the files again\.$/);
    // A live one is running, as before.
    fs.writeFileSync(file, JSON.stringify(staleRecord(identityOf())));
    const live = await serviceFor(db, storePath).call('catalogue.status', {});
    // Run by this very process: its own load, never "another desk's" (issue 64 §2).
    expect(live.ok && live.value.job).toEqual(
      expect.objectContaining({ state: 'running', alive: true, ownedHere: true, error: null }),
    );
  });

  it('refuses a new job as Busy while a live owner in another process runs one; after that owner is killed, it starts', async () => {
    const { storePath, db } = await setUp();
    const holder = spawnWorker('catalogue-job-worker', [storePath, '60000']);
    await lines(holder).waitFor(/^started/);

    let refusal: unknown;
    try {
      CatalogueJob.start(db, storePath, 'catalogue-load', {}, { me: identityOf(), clock });
    } catch (e) {
      refusal = e;
    }
    expect(refusal).toBeInstanceOf(BrickWorkError);
    expect((refusal as BrickWorkError).code).toBe('busy');
    expect((refusal as BrickWorkError).message).toContain(`pid ${holder.pid}`);
    // Another process's load is another's: the card says Busy, naming it.
    const status = await serviceFor(db, storePath).call('catalogue.status', {});
    expect(status.ok && status.value.job).toEqual(expect.objectContaining({ alive: true, ownedHere: false }));

    holder.kill('SIGKILL');
    await exited(holder);
    const { job } = CatalogueJob.start(db, storePath, 'catalogue-load', {}, { me: identityOf(), clock });
    expect(job.state.owner).toEqual(identityOf());
  });

  it('reports a corrupt or truncated file and treats it as no job', async () => {
    const { storePath, db, file } = await setUp();
    for (const bad of [
      '{"state": "running", "kind": "catalogue-lo',
      '',
      '[]',
      '{"state":"running","kind":"k","owner":{"pid":"x"}}',
    ]) {
      fs.writeFileSync(file, bad);
      expect(catalogueJobStatus(db, storePath).problem).toBeTruthy();
      const { job, warning } = CatalogueJob.start(db, storePath, 'catalogue-load', {}, { me: identityOf(), clock });
      expect(warning).toMatch(/catalogue-job\.json could not be read/);
      job.finish('done');
    }
  });

  it('lets exactly one of two processes that start at the same moment run', async () => {
    for (let round = 0; round < 3; round++) {
      const { storePath } = await setUp();
      const go = path.join(path.dirname(storePath), 'go');
      const a = spawnWorker('catalogue-job-worker', [storePath, '1500', go]);
      const b = spawnWorker('catalogue-job-worker', [storePath, '1500', go]);
      const la = lines(a);
      const lb = lines(b);
      await Promise.all([la.waitFor(/^ready/), lb.waitFor(/^ready/)]);
      fs.writeFileSync(go, '');
      const answers = await Promise.all([la.waitFor(/^(started|busy)/), lb.waitFor(/^(started|busy)/)]);
      expect(answers.map((x) => x.split(/[ :]/)[0]).sort()).toEqual(['busy', 'started']);
      await Promise.all([exited(a), exited(b)]);
    }
  });

  it('asks a running job to stop at its next step', async () => {
    const { storePath, db } = await setUp();
    const { job } = CatalogueJob.start(db, storePath, 'catalogue-load', {}, { me: identityOf(), clock });
    expect(requestCatalogueJobCancel(db, storePath, clock)).toBe(true);
    expect(job.progress({ done: 1, total: 2 })).toBe(false);
    expect(job.finish('cancelled')).toBe(true);
    expect(requestCatalogueJobCancel(db, storePath, clock)).toBe(false);
  });

  it('is never left torn by a process killed while writing it', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'catalogue-job.json');
    let kills = 0;
    for (let i = 0; i < 12; i++) {
      const writer = spawnWorker('atomic-writer', [file]);
      await lines(writer).waitFor(/^ready/);
      // Read it while it is being rewritten: always the old content or the new, never a part.
      const until = Date.now() + 20 + Math.random() * 80;
      while (Date.now() < until) {
        if (!fs.existsSync(file)) continue;
        const seen = JSON.parse(fs.readFileSync(file, 'utf8')) as { filler: string; length: number };
        expect(seen.filler.length).toBe(seen.length);
        await new Promise((r) => setImmediate(r));
      }
      writer.kill('SIGKILL');
      await exited(writer);
      kills += 1;
      const parsed = JSON.parse(fs.readFileSync(file, 'utf8')) as { filler: string; length: number };
      expect(parsed.filler.length).toBe(parsed.length);
    }
    expect(kills).toBe(12);
  });
});
