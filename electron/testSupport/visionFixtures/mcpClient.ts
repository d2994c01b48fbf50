import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { startScriptedProvider, type Script, type ScriptedProvider } from '../scriptedProvider';

const repoRoot = path.resolve(import.meta.dirname, '../../..');

/** cadsight-vision spawned from dist/node over stdio, talking to the scripted provider. */
export interface SpawnedVisionServer {
  client: Client;
  provider: ScriptedProvider;
  dir: string;
  stderr: () => string;
  call(name: string, args: Record<string, unknown>, onprogress?: (p: { progress: number; total?: number }) => void): Promise<CallToolResult>;
  close(): Promise<void>;
}

/** Environment of a spawned server (PATH/HOME kept so ffmpeg and ~ work). */
export function visionEnv(provider: ScriptedProvider, dir: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: dir,
    DEFAULT_PROVIDER: 'chat',
    CHAT_BASE_URL: provider.apiBaseUrl,
    CHAT_MODEL: 'scripted-model',
    CHAT_API_KEY: 'sk-test-mcp-0123456789abcdef',
    CADSIGHT_DATA_DIR: path.join(dir, 'data'),
    LOG_LEVEL: 'warn',
    ...extra,
  };
}

/**
 * Spawns the server against a fresh scripted provider. `extraEnv` adds variables; `onProvider`
 * runs first, so variables may name the provider's address (e.g. a picsense-style base URL).
 */
export async function spawnVisionServer(
  script: Script,
  extraEnv: (dir: string) => Record<string, string> = () => ({}),
  onProvider: (provider: ScriptedProvider) => void = () => undefined,
): Promise<SpawnedVisionServer> {
  const dir = mkdtempSync(path.join(tmpdir(), 'cadsight-vision-mcp-'));
  const provider = await startScriptedProvider({ script });
  onProvider(provider);
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [path.join(repoRoot, 'dist/node/visionMcp.js')],
    env: visionEnv(provider, dir, extraEnv(dir)),
    cwd: dir,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const client = new Client({ name: 'cadsight-vision-test', version: '1.0.0' });
  await client.connect(transport);
  return {
    client,
    provider,
    dir,
    stderr: () => stderr,
    call: (name, args, onprogress) => client.callTool({ name, arguments: args }, undefined, onprogress ? { onprogress } : {}) as Promise<CallToolResult>,
    async close() {
      await client.close();
      await provider.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The JSON text block of a result (what picsense clients parse). */
export function textJson(result: CallToolResult): Record<string, any> {
  const block = result.content.find((c) => c.type === 'text');
  return JSON.parse(block && block.type === 'text' ? block.text : 'null') as Record<string, any>;
}
