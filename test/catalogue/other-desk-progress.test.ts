/**
 * Issue 46, point 3 (SPEC §14): the progress of another desk's running load is shown on every desk. A
 * load merges each file in one transaction, and on a server whatever that transaction writes is seen by
 * no other desk until it ends — its progress included, so the other desks read "0 of 61,770 rows" until
 * the merge was done. Its progress is now written where every desk sees it as it goes (on a server, on a
 * connection of its own; on a file, catalogue-job.json beside it).
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect, it, onTestFinished } from 'vitest';
import { catalogueJobStatus } from '../../src/catalogue/catalogue-job.ts';
import { openStore } from '../../src/store/open.ts';
import { files } from '../helpers/catalogue-files.ts';
import { describeEachStore, newStoreLocation, storeKind } from '../helpers/stores.ts';
import { tempDir } from '../helpers/temp.ts';
import { exited, lines, spawnWorker } from '../helpers/workers.ts';

describeEachStore("another desk's load, seen as it goes (issue 46, point 3)", () => {
  it('a desk reads the loading desk’s progress rise during the merge, before it commits', async () => {
    // Long enough a merge for progress to be written during it (every 10,000 rows, at most every 200 ms).
    const PARTS = storeKind() === 'postgres' ? 80_000 : 400_000;
    const storePath = newStoreLocation();
    const watcher = await openStore(storePath);
    onTestFinished(() => watcher.close());
    const parts = path.join(tempDir(), 'parts.csv');
    fs.writeFileSync(
      parts,
      files.rebrickableParts(Array.from({ length: PARTS }, (_, i) => ({ no: `p${i}`, name: `Plate ${i} x 2` }))),
    );
    const loader = spawnWorker('catalogue-load-worker', [storePath, parts]);
    const said = lines(loader);
    await said.waitFor(/^start /);
    // Read by this desk while the loader's merge is under way: the progress it reaches before `merged`.
    const seen: number[] = [];
    let merged = false;
    void said.waitFor(/^merged /).then(() => (merged = true));
    while (!merged && loader.exitCode === null) {
      const status = catalogueJobStatus(watcher.db, storePath);
      if (!merged && status.record?.state === 'running') seen.push(status.record.progress.done);
      await new Promise((r) => setTimeout(r, 20));
    }
    await exited(loader);
    expect(merged, 'the load merged its file').toBe(true);
    expect(Math.max(0, ...seen), `the progress this desk read during the merge: ${seen.join(', ')}`).toBeGreaterThan(0);
    expect(Math.max(...seen)).toBeLessThan(PARTS);
  });
});
