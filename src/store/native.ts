/**
 * better-sqlite3 is a native module, and Electron's ABI differs from Node's. The app keeps one binary
 * per ABI: `npm test` and the CLI load the one npm built for Node; the Electron main process (and its
 * runner thread) point every connection at the binary built for Electron with better-sqlite3's
 * `nativeBinding` option. No rebuild between the two, in either order (docs/development.md, "better-sqlite3 and Electron").
 */
let binding: string | null = null;

/** Where the better-sqlite3 binary for this runtime is; null for the one npm installed. Call before opening any store. */
export function useNativeBinding(path: string | null): void {
  binding = path;
}

/** Options for every `new Database(...)` of the store. */
export function nativeOptions(): { nativeBinding?: string } {
  return binding === null ? {} : { nativeBinding: binding };
}
