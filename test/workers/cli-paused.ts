/**
 * The CLI as `bin/brick-work.js` runs it (`runCli` over this process's stdout and stderr), paused before
 * one contract call: when it comes to CALL (BRICK_WORK_DEBUG says so on stderr, once the command's earlier
 * calls are answered and before CALL is made) it prints `paused` on stderr and waits for a line on stdin.
 * A test puts another process's write there: between what a command read and what it writes.
 * argv: CALL CLI_ARG…
 */
import fs from 'node:fs';
import { runCli } from '../../src/cli/run.ts';

const [pauseAt, ...argv] = process.argv.slice(2);
if (pauseAt === undefined) throw new Error('usage: cli-paused CALL CLI_ARG…');
const mark = `brick-work: call ${pauseAt}\n`;

/** Blocks this process (the CLI's whole thread) until stdin gives a line. */
function waitForLine(): void {
  const buffer = Buffer.alloc(64);
  for (;;) {
    try {
      if (fs.readSync(0, buffer) > 0) return;
      throw new Error('stdin closed before the test let the command go on');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EAGAIN') throw e;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
    }
  }
}

const status = await runCli(argv, {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => {
    process.stderr.write(text);
    if (text === mark) {
      process.stderr.write('paused\n');
      waitForLine();
    }
  },
  env: { ...process.env, BRICK_WORK_DEBUG: '1' },
});
process.exitCode = status;
