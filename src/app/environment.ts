/**
 * What the shells (Electron's main process, the browser host, the CLI) take from the core's lower
 * folders, given through the composition root: where the store is and what its file is called, the
 * native binding of better-sqlite3, and the BrickLink credentials an environment holds.
 */
export { credentialsFromEnv, type Credentials } from '../catalogue/bricklink/oauth.ts';
export { useNativeBinding } from '../store/native.ts';
export type { Store } from '../store/open.ts';
export { passwordOnCommandLine, resolveStorePath, STORE_FILE_NAME } from '../store/paths.ts';
