import { describe, expect, it, vi } from 'vitest';

const exposed: Record<string, unknown> = {};
const invoke = vi.fn(async () => ({ ok: true, value: 'answer' }));
const listeners = new Map<string, (...a: unknown[]) => void>();
vi.mock('electron', () => ({
  contextBridge: { exposeInMainWorld: (key: string, value: unknown) => (exposed[key] = value) },
  ipcRenderer: {
    invoke,
    on: (channel: string, fn: (...a: unknown[]) => void) => listeners.set(channel, fn),
    removeListener: (channel: string) => listeners.delete(channel),
  },
}));

describe('the preload', () => {
  it('exposes the contract as window.brickWork, and nothing else', async () => {
    await import('../../electron/preload.ts');
    expect(Object.keys(exposed)).toEqual(['brickWork']);
    const api = exposed['brickWork'] as {
      call: (n: string, a: unknown) => Promise<unknown>;
      onEvent: (l: (...a: unknown[]) => void) => () => void;
    };
    expect(Object.keys(api).sort()).toEqual(['call', 'onEvent']);

    await expect(api.call('orders.list', {})).resolves.toEqual({ ok: true, value: 'answer' });
    expect(invoke).toHaveBeenCalledWith('brick-work:call', 'orders.list', {});

    const got: unknown[] = [];
    const stop = api.onEvent((name, payload) => got.push([name, payload]));
    listeners.get('brick-work:event')?.({}, 'store.changed', { reason: 'import' });
    expect(got).toEqual([['store.changed', { reason: 'import' }]]);
    stop();
    expect(listeners.has('brick-work:event')).toBe(false);
  });
});
