/**
 * The preload (sandboxed, context-isolated): exposes the contract as `window.brickWork`, nothing else.
 * Checked against the contract's type with `satisfies`.
 */
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import type { ApiEvents, BrickWorkApi, EventName } from '../src/api/contract.ts';
import { CALL_CHANNEL, EVENT_CHANNEL } from './channels.ts';

const brickWork = {
  call: (name, args) => ipcRenderer.invoke(CALL_CHANNEL, name, args),
  onEvent(listener) {
    const relay = (_e: IpcRendererEvent, name: EventName, payload: ApiEvents[EventName]) => listener(name, payload);
    ipcRenderer.on(EVENT_CHANNEL, relay);
    return () => {
      ipcRenderer.removeListener(EVENT_CHANNEL, relay);
    };
  },
} satisfies BrickWorkApi;

contextBridge.exposeInMainWorld('brickWork', brickWork);
