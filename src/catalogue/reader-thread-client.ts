import type { Worker } from 'node:worker_threads';
import type { ItemType } from '../vocabulary/item-types.ts';
import type { NamedContent } from './read-file.ts';
import { ReaderStopped, type FileStream, type ReaderThread, type StreamMessage } from './read-stream.ts';
import type { ReaderRequest } from './reader-thread.ts';
import { fromWire, type WireMessage } from './reader-wire.ts';

/**
 * The largest memory kept for the next file: Rebrickable's parts.csv (5.5 MB) and any gzipped download
 * cost no new memory; a larger file's is let go, so that an idle app does not hold it.
 */
const KEPT_BYTES = 8 * 1024 * 1024;

interface Open {
  push(m: StreamMessage): void;
  stop(): void;
}

/**
 * The catalogue job's side of the reader thread: started on first use (or by `warm`), kept for the next
 * load, and never what keeps the process alive while idle. A thread that stops fails the files it was
 * reading with `ReaderStopped` (the job reads them on its own thread) and is started again for the next.
 */
export class ReaderThreadClient implements ReaderThread {
  private worker: Worker | null = null;
  private readonly open = new Map<number, Open>();
  private next = 1;
  /** Memory both threads see, free for the next file (`shared`). */
  private spare: SharedArrayBuffer | null = null;

  constructor(
    private readonly start: () => Worker,
    private readonly log: (line: string) => void = () => undefined,
  ) {}

  stream(file: NamedContent, type: ItemType | null): FileStream {
    const worker = this.ensure();
    const id = this.next++;
    const queue: StreamMessage[] = [];
    let waiting: { resolve: (m: StreamMessage) => void; reject: (e: Error) => void } | null = null;
    let stopped = false;
    const content = this.shared(file.content);
    this.open.set(id, {
      push: (m) => {
        if (m.kind === 'end' || m.kind === 'error') {
          this.forget(id);
          // The thread is done with the bytes: the next file may use their memory.
          if (content.buffer.byteLength <= KEPT_BYTES) this.spare = content.buffer as SharedArrayBuffer;
        }
        if (waiting !== null) {
          waiting.resolve(m);
          waiting = null;
        } else queue.push(m);
      },
      stop: () => {
        stopped = true;
        waiting?.reject(new ReaderStopped('the catalogue reader thread stopped'));
        waiting = null;
      },
    });
    worker.ref();
    this.send({ type: 'read', id, file: { name: file.name, content }, itemType: type });
    return {
      next: () => {
        const m = queue.shift();
        if (m !== undefined) return Promise.resolve(m);
        if (stopped) return Promise.reject(new ReaderStopped('the catalogue reader thread stopped'));
        return new Promise((resolve, reject) => (waiting = { resolve, reject }));
      },
      cancel: () => {
        if (!this.open.has(id)) return;
        this.forget(id);
        this.send({ type: 'cancel', id });
      },
    };
  }

  /**
   * The file's bytes in memory both threads see. Posted as they are, a plain copy is cloned twice on its
   * way (a 5 MB file took 15–35 ms, longer than the first rows take to read); fresh memory costs its page
   * faults (up to 20 ms), so the last file's is used again when it is large enough and the thread is done
   * with it — never while a cancelled file may still be read from it.
   */
  private shared(content: Uint8Array): Uint8Array {
    const spare = this.spare;
    this.spare = null;
    const memory =
      spare !== null && spare.byteLength >= content.byteLength ? spare : new SharedArrayBuffer(content.byteLength);
    const view = new Uint8Array(memory, 0, content.byteLength);
    view.set(content);
    return view;
  }

  /** Starts the thread ahead of the first file, so that a load does not wait for it to start. */
  warm(): void {
    this.ensure();
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    if (worker !== null) await worker.terminate();
  }

  /** A file is read to its end, or no longer wanted. */
  private forget(id: number): void {
    this.open.delete(id);
    if (this.open.size === 0) this.worker?.unref();
  }

  private send(m: ReaderRequest): void {
    this.worker?.postMessage(m);
  }

  private ensure(): Worker {
    if (this.worker !== null) return this.worker;
    const worker = this.start();
    worker.unref();
    worker.on('message', (m: { id: number; msg: WireMessage }) => {
      const open = this.open.get(m.id);
      if (open === undefined) return;
      const msg = fromWire(m.msg);
      if (msg !== null) return open.push(msg);
      // Not what was sent: the job reads this file on its own thread (`ReaderStopped`).
      this.log("a catalogue reader thread message did not read back whole; the file is read on the job's thread");
      this.forget(m.id);
      this.send({ type: 'cancel', id: m.id });
      open.stop();
    });
    const stopped = (why: string, always: boolean) => {
      if (this.worker !== worker) return;
      this.worker = null;
      if (always || this.open.size > 0)
        this.log(
          `the catalogue reader thread stopped (${why}); catalogue files are read on the job's thread until it starts again`,
        );
      for (const o of this.open.values()) o.stop();
      this.open.clear();
    };
    worker.on('error', (e) => stopped(e.message, true));
    worker.on('exit', (code) => stopped(`exit code ${code}`, false));
    this.worker = worker;
    return worker;
  }
}
