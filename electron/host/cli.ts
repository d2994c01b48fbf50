import { runCli } from './commands/registry';

// A reader that stops early (`cadsight gen list | head -1`) closes the pipe: that is not an error,
// the command simply has no one left to print for, so it ends quietly with success.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});

// `cadsight <command> ...`: headless entry for everything the UI does.
runCli(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`cadsight: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 2;
  },
);
