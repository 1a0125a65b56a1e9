import { create } from 'zustand';
import type { MemoriesView, SettingsView } from '../../src/api/contract.ts';
import { useApp } from './app.ts';
import { call } from './call.ts';

interface SettingsState {
  settings: SettingsView | null;
  placements: MemoriesView;
  reload(): Promise<void>;
  set(key: 'daily-call-limit' | 'currency' | 'api-url', value: string): Promise<void>;
  setCredentials(c: { consumerKey: string; consumerSecret: string; token: string; tokenSecret: string }): Promise<boolean>;
  forget(kind: 'item' | 'colour', id: number): Promise<void>;
}

export const useSettings = create<SettingsState>((set, get) => ({
  settings: null,
  placements: { items: [], colours: [] },
  async reload() {
    try {
      const [settings, placements] = await Promise.all([call('settings.get', {}), call('placements.list', {})]);
      set({ settings, placements });
    } catch (e) {
      useApp.getState().fail(e);
    }
  },
  async set(key, value) {
    try {
      set({ settings: await call('settings.set', { key, value }) });
      useApp.getState().say('Saved.');
    } catch (e) {
      useApp.getState().fail(e);
    }
  },
  async setCredentials(c) {
    try {
      set({ settings: await call('settings.setCredentials', c) });
      useApp.getState().say('The BrickLink credentials are stored.');
      return true;
    } catch (e) {
      useApp.getState().fail(e);
      return false;
    }
  },
  async forget(kind, id) {
    try {
      const { step } = await call('placements.forget', { kind, id });
      useApp.getState().say(`${step.label}. Undo brings it back.`);
      await get().reload();
    } catch (e) {
      useApp.getState().fail(e);
    }
  },
}));
