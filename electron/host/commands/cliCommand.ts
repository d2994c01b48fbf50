/** A CLI sub-command. `run` returns the process exit code; typed errors are printed as data. */
export interface CliCommand {
  name: string;
  summary: string;
  run(args: string[]): Promise<number>;
}
