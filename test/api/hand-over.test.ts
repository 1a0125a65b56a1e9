import { describe, expect, it } from 'vitest';
import { handedOver, handOver } from '../../src/app/hand-over.ts';

describe('files handed over with a call (issue 25, point 7)', () => {
  it('are only those the caller marked, each owning its memory whole, each once', () => {
    const upload = new Uint8Array(1024);
    const kept = new Uint8Array(1024);
    const view = new Uint8Array(new ArrayBuffer(2048), 1024, 512);
    const pooled = Buffer.from('small'); // shares Node's pool: never handed over
    const args = handOver({
      files: [
        { name: 'a', content: upload },
        { name: 'b', content: upload },
      ],
      view,
      pooled,
    });
    expect(handedOver(args)).toEqual([upload.buffer]);
    expect(handedOver({ kept })).toEqual([]);
    // Handed over through postMessage, it is the receiver's: the sender's array is empty.
    const { port1, port2 } = new MessageChannel();
    port1.postMessage(args, handedOver(args));
    expect(upload.byteLength).toBe(0);
    expect(kept.byteLength).toBe(1024);
    port1.close();
    port2.close();
  });
});
