import { runCli } from './run.ts';

/**
 * A reader that stops reading (`… | head -c 150`) closes the pipe: the next write meets EPIPE, which
 * Node reports as an 'error' event that, unheard, ends the process with a stack trace. What the reader
 * did not want is not written; the command ends as it would have (issue 62).
 */
function writerTo(stream: NodeJS.WriteStream): (text: string) => void {
  let closed = false;
  stream.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code !== 'EPIPE') throw e;
    closed = true;
  });
  return (text) => {
    if (!closed) stream.write(text);
  };
}

const status = await runCli(process.argv.slice(2), {
  stdout: writerTo(process.stdout),
  stderr: writerTo(process.stderr),
  env: process.env,
});
// Not process.exit(): let stdout drain when it is a pipe.
process.exitCode = status;
