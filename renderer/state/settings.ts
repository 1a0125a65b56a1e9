import { create } from 'zustand';
import type { MemoriesView, SettingKey, SettingsView } from '../../src/api/contract.ts';
import { attempt, useApp } from './app.ts';
import { call } from './call.ts';

interface SettingsState {
  settings: SettingsView | null;
  placements: MemoriesView;
  reload(): Promise<void>;
  set(key: SettingKey, value: string): Promise<void>;
  setCredentials(c: {
    consumerKey: string;
    consumerSecret: string;
    token: string;
    tokenSecret: string;
  }): Promise<boolean>;
  forget(kind: 'item' | 'colour' | 'name', id: number): Promise<void>;
}

export const useSettings = create<SettingsState>((set, get) => ({
  settings: null,
  placements: { items: [], colours: [], names: [] },
  async reload() {
    const both = await attempt(() => Promise.all([call('settings.get', {}), call('placements.list', {})]));
    if (both !== null) set({ settings: both[0], placements: both[1] });
  },
  async set(key, value) {
    const settings = await attempt(() => call('settings.set', { key, value }));
    if (settings === null) return;
    set({ settings });
    useApp.getState().say('Saved.');
  },
  async setCredentials(c) {
    const settings = await attempt(() => call('settings.setCredentials', c));
    if (settings === null) return false;
    set({ settings });
    useApp.getState().say('The BrickLink credentials are stored.');
    return true;
  },
  async forget(kind, id) {
    const forgot = await attempt(() => call('placements.forget', { kind, id }));
    if (forgot === null) return;
    useApp.getState().say(`${forgot.step.label}. Undo brings it back.`);
    await get().reload();
  },
}));
