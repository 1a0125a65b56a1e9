import { create } from 'zustand';
import type { ApiEvents, CatalogueStatusView, ItemTypeCode, JobRowView } from '../../src/api/contract.ts';
import { attempt, useApp } from './app.ts';
import { call, fileArg } from './call.ts';

interface CatalogueState {
  status: CatalogueStatusView | null;
  jobs: JobRowView[];
  /** Live progress of the catalogue job from the runner, between reloads. */
  live: { kind: string; done: number; total: number | null; state: string } | null;
  /** The kind of item in BrickLink's items downloads, as chosen; null: as each file's name says (SPEC §5). */
  type: ItemTypeCode | null;
  reload(): Promise<void>;
  setType(type: ItemTypeCode | null): void;
  load(files: File[]): Promise<void>;
  pickAndLoad(): Promise<boolean>;
  cancelLoad(): Promise<void>;
  lookup(limit: number | null): Promise<void>;
  cancelJob(jobId: number): Promise<void>;
  progress(p: ApiEvents['job.progress']): void;
}

/** A load's arguments with the chosen item type, or none (each file's name says it). */
function withType<T extends object>(args: T, type: ItemTypeCode | null): T & { type?: ItemTypeCode } {
  return type === null ? args : { ...args, type };
}

export const useCatalogue = create<CatalogueState>((set, get) => ({
  status: null,
  jobs: [],
  live: null,
  type: null,
  async reload() {
    const both = await attempt(() => Promise.all([call('catalogue.status', {}), call('jobs.list', {})]));
    if (both !== null) set({ status: both[0], jobs: [...both[1]] });
  },
  setType: (type) => set({ type }),
  async load(files) {
    const started = await attempt(async () => {
      const args = await Promise.all(files.map(fileArg));
      await call('catalogue.load', withType({ files: args }, get().type));
      return args;
    });
    if (started === null) return;
    set({ live: { kind: 'catalogue-load', done: 0, total: null, state: 'running' } });
    useApp.getState().say(`Loading ${started.map((f) => f.name).join(', ')}…`);
  },
  async pickAndLoad() {
    const picked = await attempt(async () => {
      const file = await call('file.pick', { purpose: 'catalogue' });
      if (file !== null) await call('catalogue.load', withType({ files: [file] }, get().type));
      return file;
    });
    if (picked === null) return false;
    set({ live: { kind: 'catalogue-load', done: 0, total: null, state: 'running' } });
    return true;
  },
  async cancelLoad() {
    await attempt(() => call('catalogue.cancel', {}));
  },
  async lookup(limit) {
    const started = await attempt(() => call('lookup.start', { limit }));
    if (started === null) return;
    useApp
      .getState()
      .say(
        limit === null
          ? 'The look-up has started: it asks BrickLink for each missing number once.'
          : `The look-up has started: at most ${limit} calls this time.`,
      );
    await get().reload();
  },
  async cancelJob(jobId) {
    if ((await attempt(() => call('jobs.cancel', { jobId }))) !== null) await get().reload();
  },
  progress(p) {
    set({ live: p.state === 'running' ? p : null });
    if (p.state.startsWith('failed')) useApp.getState().fail(new Error(p.state.replace(/^failed: /, '')));
    else if (p.state === 'done' && p.kind === 'catalogue-load')
      useApp.getState().say(p.summary ?? 'The catalogue is loaded.', p.orders);
  },
}));
