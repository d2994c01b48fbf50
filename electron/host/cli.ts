import { runCli } from './commands/registry';

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
