/** Prints whether the owner given as JSON is alive, by this process's view (run as another user). argv: OWNER_JSON */
import { isAlive, pidExists } from '../../src/identity/owner.ts';

const owner = JSON.parse(process.argv[2] ?? 'null');
let probe = 'ok';
try {
  process.kill(owner.pid, 0);
} catch (e) {
  probe = (e as NodeJS.ErrnoException).code ?? 'error';
}
process.stdout.write(
  `${JSON.stringify({ alive: isAlive(owner), exists: pidExists(owner.pid), probe, uid: process.getuid?.() })}\n`,
);
