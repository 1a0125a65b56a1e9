/**
 * Opens a store read-write, as the app, the browser host and the CLI do — which upgrades a 4.1 store
 * to 4.2 (backup first, then every step, in one write transaction). For the soak
 * (`test/helpers/soak-upgrade.ts`). Prints:
 *   ready T               about to open (CLOCK_MONOTONIC)
 *   progress MESSAGE      what the upgrade is doing
 *   upgraded FROM T       this open upgraded the file
 *   opened T              the file was current already
 * argv: STORE
 */
import { openStore } from '../../src/store/open.ts';

const [storePath] = process.argv.slice(2);
if (!storePath) throw new Error('usage: upgrade-worker STORE');
const say = (line: string) => process.stdout.write(`${line}\n`);
const now = () => process.hrtime.bigint().toString();

say(`ready ${now()}`);
const store = await openStore(storePath, { onProgress: (m) => say(`progress ${m}`) });
say(store.upgrade ? `upgraded ${store.upgrade.from} ${now()}` : `opened ${now()}`);
store.close();
