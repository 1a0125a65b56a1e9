import { create } from 'zustand';
import type { DeskView, MemoriesView, SettingKey, SettingsView, ShopServerView } from '../../src/api/contract.ts';
import { attempt, useApp } from './app.ts';
import { call } from './call.ts';

interface SettingsState {
  settings: SettingsView | null;
  placements: MemoriesView;
  reload(): Promise<void>;
  /** The settings alone, read again (a screen that shows by one of them). */
  load(): Promise<void>;
  set(key: SettingKey, value: string): Promise<void>;
  setCredentials(c: {
    consumerKey: string;
    consumerSecret: string;
    token: string;
    tokenSecret: string;
  }): Promise<boolean>;
  /** `seen`: what the memory gave as shown; another desk's change since is refused (line-changed). */
  forget(
    kind: 'item' | 'colour' | 'name',
    id: number,
    seen?: { type?: string; no?: string; colourId?: number },
  ): Promise<void>;
  /** Settings → Shop server: the store in use and the server chosen for the next start. */
  shopServer: ShopServerView | null;
  chooseShopServer(c: {
    host: string;
    port: number;
    database: string;
    user: string;
    password: string;
  }): Promise<boolean>;
  forgetShopServer(): Promise<void>;
  /** Settings → This desk: its name (SPEC §8). */
  desk: DeskView | null;
  /** Names this desk (null: the computer's name again). */
  renameDesk(name: string | null): Promise<void>;
}

export const useSettings = create<SettingsState>((set, get) => ({
  settings: null,
  placements: { items: [], colours: [], names: [] },
  shopServer: null,
  desk: null,
  async load() {
    const settings = await attempt(() => call('settings.get', {}));
    if (settings !== null) set({ settings });
  },
  async reload() {
    const all = await attempt(() =>
      Promise.all([
        call('settings.get', {}),
        call('placements.list', {}),
        call('shopServer.get', {}),
        call('desk.get', {}),
      ]),
    );
    if (all !== null) set({ settings: all[0], placements: all[1], shopServer: all[2], desk: all[3] });
  },
  async renameDesk(name) {
    const desk = await attempt(() => call('desk.set', { name }));
    if (desk === null) return;
    set({ desk });
    useApp.getState().say(`This desk is "${desk.name}" now: its Undo and Redo take back its own steps.`);
    await useApp.getState().refreshHistory();
  },
  async chooseShopServer(c) {
    const shopServer = await attempt(() => call('shopServer.choose', c));
    if (shopServer === null) return false;
    set({ shopServer });
    if (shopServer.note) useApp.getState().say(shopServer.note);
    return true;
  },
  async forgetShopServer() {
    const shopServer = await attempt(() => call('shopServer.forget', {}));
    if (shopServer === null) return;
    set({ shopServer });
    if (shopServer.note) useApp.getState().say(shopServer.note);
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
  async forget(kind, id, seen) {
    const forgot = await attempt(() => call('placements.forget', { kind, id, ...(seen ? { seen } : {}) }));
    if (forgot === null) {
      await get().reload(); // changed or gone meanwhile: show it as it is now
      return;
    }
    useApp.getState().say(`${forgot.step.label}. Undo brings it back.`);
    await get().reload();
  },
}));
