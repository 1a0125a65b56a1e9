/**
 * Issue 61 §4: a shop server's connection cut during a catalogue load is a failed load, said in words —
 * never "cancelled" (nobody cancelled), never exit 0. The desk's connection is made again at the next
 * step, as a new session: the load it ran is no longer that session's, and it says why it stopped.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { SYSTEM_CLOCK } from '../../src/platform/clock.ts';
import { catalogueJobStatus } from '../../src/catalogue/catalogue-job.ts';
import { loadCatalogue } from '../../src/catalogue/load.ts';
import { isBrickWorkError } from '../../src/vocabulary/errors.ts';
import { openStore } from '../../src/store/open.ts';
import { connectionOwner } from '../../src/store/owners.ts';
import { bytes, files } from '../helpers/catalogue-files.ts';
import { cliJson } from '../helpers/cli.ts';
import { needs } from '../helpers/needs.ts';
import { hasPostgres, NEEDS_POSTGRES, startPostgres, type PostgresServer } from '../helpers/postgres.ts';
import { tempDir } from '../helpers/temp.ts';
import fs from 'node:fs';

/** The words of a cut connection: noticed by the load between its steps, or by the statement it cut. */
const CUT = /connection .*was cut|ended the connection/;

const parts = (prefix: string, n: number) =>
  files.rebrickableParts(Array.from({ length: n }, (_, i) => ({ no: `${prefix}${i}`, name: `Part ${prefix}${i}` })));

describe.runIf(needs(hasPostgres(), NEEDS_POSTGRES, 'a connection cut during a load'))(
  'a connection cut during a catalogue load (issue 61 §4)',
  { tags: ['postgres'] },
  () => {
    let server: PostgresServer;
    beforeAll(async () => {
      server = await startPostgres();
    }, 60_000);
    afterAll(() => server?.close());
    let made = 0;
    const newStore = () => {
      const name = `cut_${process.pid}_${++made}`;
      server.createDatabase(name);
      return server.url(name);
    };

    it('the load fails in words, not as cancelled; its record says it failed', async () => {
      const storePath = newStore();
      const store = await openStore(storePath);
      onTestFinished(() => store.close());
      const database = new URL(storePath).pathname.slice(1);
      let cut = false;
      const load = loadCatalogue(
        store.db,
        storePath,
        ['a', 'b', 'c'].map((p) => ({ name: `parts-${p}.csv`, content: bytes(parts(p, 50)) })),
        {
          type: null,
          me: connectionOwner(store.db),
          clock: SYSTEM_CLOCK,
          onProgress: (p) => {
            // After the first file's merge, between two files: the server ends this desk's session.
            if (cut || p.done < 50) return;
            cut = true;
            server.sql(database, `SELECT pg_terminate_backend(${connectionOwner(store.db).pid})`);
          },
        },
      );
      const outcome = await load.then(
        (r) => ({ cancelled: r.cancelled }),
        (e: unknown) => ({ error: isBrickWorkError(e) ? e.code : String(e), message: (e as Error).message }),
      );
      expect(cut).toBe(true);
      expect(outcome).toMatchObject({ error: 'store-unreachable' });
      expect((outcome as { message: string }).message, JSON.stringify(outcome)).toMatch(CUT);
      const record = catalogueJobStatus(store.db, storePath).record;
      expect(record?.state).toBe('failed');
      expect(record?.error).toMatch(CUT);
    });

    it("the CLI's load whose session is ended mid-load: exit non-zero in words, never `cancelled: true`", async () => {
      const storePath = newStore();
      (await openStore(storePath)).close();
      const database = new URL(storePath).pathname.slice(1);
      const dir = tempDir();
      const names = ['a', 'b', 'c', 'd', 'e', 'f'].map((p) => {
        const file = path.join(dir, `parts-${p}.csv`);
        fs.writeFileSync(file, parts(p, 20_000));
        return file;
      });
      const run = cliJson(['--db', storePath, 'catalogue', 'import', ...names]);
      // Its session is ended again and again while it loads (a server restarted, a network cut).
      const cutter = setInterval(() => {
        try {
          server.sql(
            database,
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name LIKE 'brick-work %' AND datname = current_database() AND pid <> pg_backend_pid()",
          );
        } catch {
          // the server was busy: the next tick cuts
        }
      }, 150);
      const r = await run.finally(() => clearInterval(cutter));
      if (r.code === 0) {
        // It may have finished between two cuts: then it loaded everything, and says so.
        expect(r.json.cancelled).not.toBe(true);
        expect(r.json.items).toBe(6 * 20_000);
      } else {
        expect(r.code, r.stderr).toBe(1);
        expect(r.json.error.code).toBe('store-unreachable');
        expect(r.json.cancelled).toBeUndefined();
      }
    }, 120_000);
  },
);
