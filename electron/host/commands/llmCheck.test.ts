import { execFile } from 'node:child_process';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CONFORMING_MODEL_SCRIPT, startScriptedProvider, type ScriptedProvider, type ScriptStep } from '../../testSupport/scriptedProvider';

const repoRoot = path.resolve(__dirname, '../../..');
const KEY = 'sk-llmcheck-canary-8c7d6e5f4a3b';
let server: ScriptedProvider | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Runs the built CLI (dist/node/cli.js, rebuilt by the vitest global setup). */
function runCli(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['dist/node/cli.js', ...args], { cwd: repoRoot, env: { PATH: process.env['PATH'] ?? '', ...env } }, (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr });
    });
  });
}

const conformingModel = CONFORMING_MODEL_SCRIPT;

async function chatEnv(script: ScriptStep[]): Promise<Record<string, string>> {
  server = await startScriptedProvider({ script, apiKey: KEY });
  return { CHAT_BASE_URL: server.apiBaseUrl, CHAT_API_KEY: KEY, CHAT_MODEL: 'scripted-vl' };
}

describe('cadsight llm-check', () => {
  it('records all four capabilities as JSON for a conforming provider', async () => {
    const { code, stdout, stderr } = await runCli(['llm-check', '--provider', 'chat', '--json'], await chatEnv(conformingModel));
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const report = JSON.parse(stdout);
    expect(report).toMatchObject({ providerId: 'chat', protocol: 'chat-completions', model: 'scripted-vl' });
    expect(report.capabilities).toEqual({ plainText: true, imageInput: true, forcedToolCall: true, toolLoop: true });
    expect(report.checks[2].detail).toContain('{\\"unit\\":\\"mm\\",  \\"value\\":12}');
    const imageRequest = server!.requests[1]!.body as { messages: Array<{ content: Array<{ type: string; image_url?: { url: string } }> }> };
    expect(imageRequest.messages[0]!.content[0]!.image_url!.url).toMatch(/^data:image\/png;base64,iVBOR/);
    const loopRequest = server!.requests[4]!.body as { messages: Array<{ role: string }> };
    expect(loopRequest.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
  });

  it('prints a failing table row and exits 1 when the model does not call the forced tool', async () => {
    const script = [...conformingModel];
    script[2] = { text: '{"value":12,"unit":"mm"}' };
    const { code, stdout } = await runCli(['llm-check', '--provider', 'chat', '--model', 'other-model'], await chatEnv(script));
    expect(code).toBe(1);
    expect(stdout).toMatch(/forcedToolCall\s+FAIL\s+LLM_NO_TOOL_CALL/);
    expect(stdout).toMatch(/plainText\s+pass/);
    expect(stdout).toContain('model other-model');
    expect(stdout).toContain('3/4 checks passed');
    expect((server!.requests[0]!.body as { model: string }).model).toBe('other-model');
  });

  it('reports an auth failure per check without printing the key', async () => {
    const env = await chatEnv(conformingModel);
    const { code, stdout, stderr } = await runCli(['llm-check', '--provider', 'chat', '--json'], { ...env, CHAT_API_KEY: `${KEY}-wrong` });
    expect(code).toBe(1);
    const report = JSON.parse(stdout);
    expect(report.checks.map((c: { error: { code: string } }) => c.error.code)).toEqual(['LLM_AUTH', 'LLM_AUTH', 'LLM_AUTH', 'LLM_AUTH']);
    expect(stdout + stderr).not.toContain(KEY);
  });

  it('exits 2 with LLM_NOT_CONFIGURED naming the missing variable', async () => {
    const { code, stderr } = await runCli(['llm-check', '--provider', 'anthropic'], {});
    expect(code).toBe(2);
    expect(stderr).toContain('[LLM_NOT_CONFIGURED]');
    expect(stderr).toContain('ANTHROPIC_API_KEY');
  });
});
