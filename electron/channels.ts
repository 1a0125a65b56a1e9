/** The IPC channels of the contract: one for calls (invoke), one for events (main → renderer). */
export const CALL_CHANNEL = 'brick-work:call';
export const EVENT_CHANNEL = 'brick-work:event';
