/** What the page and its file worker (`wire-worker.ts`) say to each other. */

/** The key of a place in a call's arguments that holds a chosen file's bytes: `{ [FILE_MARK]: its index }`. */
export const FILE_MARK = '\u0000brick-work-file';

export type ToWireWorker =
  | { readonly id: number; readonly kind: 'read'; readonly file: Blob }
  | { readonly id: number; readonly kind: 'encode'; readonly value: unknown; readonly files: readonly Blob[] };

export type FromWireWorker =
  | { readonly id: number; readonly kind: 'read'; readonly bytes: ArrayBuffer }
  | { readonly id: number; readonly kind: 'body'; readonly body: Blob }
  | { readonly id: number; readonly kind: 'failed'; readonly message: string };
