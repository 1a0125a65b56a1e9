import { create } from 'zustand';
import type { ApiEvents, CatalogueStatusView, ItemTypeCode, JobRowView } from '../../src/api/contract.ts';
import { attempt, useApp } from './app.ts';
import { call, fileArg } from './call.ts';
import { DEFAULT_ITEM_TYPE } from '../../src/item-types.ts';

interface CatalogueState {
  status: CatalogueStatusView | null;
  jobs: JobRowView[];
  /** Live progress of the catalogue job from the runner, between reloads. */
  live: { kind: string; done: number; total: number | null; state: string } | null;
  type: ItemTypeCode;
  reload(): Promise<void>;
  setType(type: ItemTypeCode): void;
  load(files: File[]): Promise<void>;
  pickAndLoad(): Promise<boolean>;
  cancelLoad(): Promise<void>;
  lookup(limit: number | null): Promise<void>;
  cancelJob(jobId: number): Promise<void>;
  progress(p: ApiEvents['job.progress']): void;
}

export const useCatalogue = create<CatalogueState>((set, get) => ({
  status: null,
  jobs: [],
  live: null,
  type: DEFAULT_ITEM_TYPE,
  async reload() {
    const both = await attempt(() => Promise.all([call('catalogue.status', {}), call('jobs.list', {})]));
    if (both !== null) set({ status: both[0], jobs: [...both[1]] });
  },
  setType: (type) => set({ type }),
  async load(files) {
    const started = await attempt(async () => {
      const args = await Promise.all(files.map(fileArg));
      await call('catalogue.load', { files: args, type: get().type });
      return args;
    });
    if (started === null) return;
    set({ live: { kind: 'catalogue-load', done: 0, total: null, state: 'running' } });
    useApp.getState().say(`Loading ${started.map((f) => f.name).join(', ')}…`);
  },
  async pickAndLoad() {
    const picked = await attempt(async () => {
      const file = await call('file.pick', { purpose: 'catalogue' });
      if (file !== null) await call('catalogue.load', { files: [file], type: get().type });
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
