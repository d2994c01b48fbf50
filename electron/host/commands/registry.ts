import { AppError } from '../../../shared/errors';

import type { CliCommand } from './cliCommand';

/** Loaded lazily so `cadsight <x>` only pays for the modules command x needs. */
const commands: Record<string, { summary: string; load: () => Promise<CliCommand> }> = {
  // Each slice registers its commands here, one line each.
  cdsl: { summary: 'CDSL parts: validate, build (STEP/GLB/drawings + claims), topology, contracts', load: async () => (await import('./cdsl')).cdslCommand },
  doctor: { summary: 'Check what works here: kernel, fonts, ffmpeg, data folder, providers, AutoCAD address', load: async () => (await import('./doctor')).doctorCommand },
  'dxf-server': { summary: 'Serve a DXF drawing over the cad_mcp_frame protocol (embedded backend)', load: async () => (await import('./dxfServer')).dxfServerCommand },
  eval: { summary: 'Evaluate CAD generation end to end: offline (scripted provider) or live (--require-live)', load: async () => (await import('./eval')).evalCommand },
  gen: { summary: 'Generate a part from a request (CDSL v3 protocol): new, list, show, ledger, resume, answer, cancel, export, drawing, check', load: async () => (await import('./gen')).genCommand },
  'llm-check': { summary: 'Check an LLM provider: text, image, forced tool call, tool loop', load: async () => (await import('./llmCheck')).llmCheckCommand },
  review: { summary: 'Review a drawing (DXF file or --cad host:port) against the checklist; JSON + Markdown report', load: async () => (await import('./review')).reviewCommand },
  'verify-cad': { summary: 'Check an AutoCAD cad_mcp_frame plugin (or dxf-server) for protocol conformance', load: async () => (await import('./verifyCad')).verifyCadCommand },
};

function usage(): string {
  const lines = Object.entries(commands).map(([name, c]) => `  ${name.padEnd(14)} ${c.summary}`);
  return `Usage: cadsight <command> [options]\n\nCommands:\n${lines.join('\n')}\n`;
}

export async function runCli(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(usage());
    return name ? 0 : 2;
  }
  const entry = commands[name];
  if (!entry) {
    process.stderr.write(`cadsight: unknown command "${name}"\n\n${usage()}`);
    return 2;
  }
  try {
    const command = await entry.load();
    return await command.run(rest);
  } catch (error) {
    if (error instanceof AppError) {
      process.stderr.write(`cadsight ${name}: [${error.code}] ${error.message}\n`);
      // A --json caller parses stdout: it gets the typed error as its one JSON document.
      if (rest.includes('--json')) process.stdout.write(`${JSON.stringify({ error: error.toData() }, null, 2)}\n`);
      return 2;
    }
    throw error;
  }
}
