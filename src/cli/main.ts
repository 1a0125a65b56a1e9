import { runCli } from './run.ts';

const status = await runCli(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  env: process.env,
});
// Not process.exit(): let stdout drain when it is a pipe.
process.exitCode = status;
