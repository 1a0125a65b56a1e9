import { create } from 'zustand';
import type { CatalogueStatusView, ItemTypeCode, JobRowView } from '../../src/api/contract.ts';
import { useApp } from './app.ts';
import { call, fileArg } from './call.ts';

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
  progress(p: { kind: string; done: number; total: number | null; state: string }): void;
}

export const useCatalogue = create<CatalogueState>((set, get) => ({
  status: null,
  jobs: [],
  live: null,
  type: 'P',
  async reload() {
    try {
      const [status, jobs] = await Promise.all([call('catalogue.status', {}), call('jobs.list', {})]);
      set({ status, jobs: [...jobs] });
    } catch (e) {
      useApp.getState().fail(e);
    }
  },
  setType: (type) => set({ type }),
  async load(files) {
    try {
      const args = await Promise.all(files.map(fileArg));
      await call('catalogue.load', { files: args, type: get().type });
      set({ live: { kind: 'catalogue-load', done: 0, total: null, state: 'running' } });
      useApp.getState().say(`Loading ${args.map((f) => f.name).join(', ')}…`);
    } catch (e) {
      useApp.getState().fail(e);
    }
  },
  async pickAndLoad() {
    try {
      const file = await call('file.pick', { purpose: 'catalogue' });
      if (file === null) return false;
      await call('catalogue.load', { files: [file], type: get().type });
      set({ live: { kind: 'catalogue-load', done: 0, total: null, state: 'running' } });
      return true;
    } catch (e) {
      useApp.getState().fail(e);
      return false;
    }
  },
  async cancelLoad() {
    try {
      await call('catalogue.cancel', {});
    } catch (e) {
      useApp.getState().fail(e);
    }
  },
  async lookup(limit) {
    try {
      const { jobId } = await call('lookup.start', { limit });
      useApp.getState().say(`Look-up job ${jobId} started.`);
      await get().reload();
    } catch (e) {
      useApp.getState().fail(e);
    }
  },
  async cancelJob(jobId) {
    try {
      await call('jobs.cancel', { jobId });
      await get().reload();
    } catch (e) {
      useApp.getState().fail(e);
    }
  },
  progress(p) {
    set({ live: p.state === 'running' ? p : null });
    if (p.state !== 'running' && p.state.startsWith('failed')) useApp.getState().fail(new Error(p.state.replace(/^failed: /, '')));
    else if (p.state === 'done' && p.kind === 'catalogue-load') useApp.getState().say('The catalogue is loaded.');
  },
}));
