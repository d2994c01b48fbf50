import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { LlmProtocol } from '../../../platform/llm/types';
import type { CapturedRequest, ScriptStep } from '../../../testSupport/scriptedProvider';
import { countImageParts, startVisionHarness, type VisionHarness } from '../../../testSupport/visionFixtures/harness';
import { solidPng } from '../../../testSupport/visionFixtures/images';

let harness: VisionHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

async function writePng(dir: string, name: string, width: number, height: number, rgb: [number, number, number] = [200, 30, 30]): Promise<string> {
  const file = path.join(dir, name);
  writeFileSync(file, await solidPng(width, height, rgb));
  return file;
}

const text = (t: string): ScriptStep => ({ text: t });

describe.each<[string, LlmProtocol, boolean]>([
  ['OpenAI Responses', 'openai-responses', false],
  ['Chat Completions', 'chat-completions', false],
  ['Chat Completions with forced streaming', 'chat-completions', true],
  ['Anthropic Messages', 'anthropic-messages', false],
])('a session over %s', (_name, protocol, forceStreaming) => {
  it('re-sends the session images on the follow-up turn and keeps the first-turn summary', async () => {
    harness = await startVisionHarness({ protocol, forceStreaming, script: [text('A red square on white.\nSUMMARY: A red square.'), text('<summary>Square width</summary>\nIt is 64 pixels wide.')] });
    const a = await writePng(harness.dir, 'a.png', 64, 48);
    const first = await harness.service.analyzeImages({ sources: [a], prompt: 'What is this?' });
    expect(first).toMatchObject({ summary: 'A red square.', description: 'A red square on white.', imageIndexes: [0] });
    const second = await harness.service.analyzeImages({ sources: [], prompt: 'How wide is it?', sessionId: first.sessionId });
    expect(second).toMatchObject({ sessionId: first.sessionId, summary: 'A red square.', description: 'It is 64 pixels wide.' });
    const [turn1, turn2] = harness.provider.requests;
    expect(countImageParts(turn1!.body)).toBe(1);
    // The defect this engine must not repeat: a follow-up without the pixels.
    expect(countImageParts(turn2!.body)).toBe(1);
    expect(JSON.stringify(turn2!.body)).toContain('A red square on white.');
    expect(second.sessionUsage.calls).toBe(2);
    if (forceStreaming) expect((turn2!.body as { stream?: boolean }).stream).toBe(true);
  });
});

describe('vision sessions', () => {
  it('adds new sources on a follow-up and sends old and new images', async () => {
    harness = await startVisionHarness({ script: [text('one'), text('two')] });
    const a = await writePng(harness.dir, 'a.png', 32, 32);
    const b = await writePng(harness.dir, 'b.png', 32, 32, [0, 0, 255]);
    const first = await harness.service.analyzeImages({ sources: [a], prompt: 'p1' });
    const second = await harness.service.analyzeImages({ sources: [b], prompt: 'compare', sessionId: first.sessionId });
    expect(second.imageIndexes).toEqual([1]);
    expect(countImageParts(harness.provider.requests[1]!.body)).toBe(2);
  });

  it('sends the sniffed MIME type, not the one a data URI declares', async () => {
    harness = await startVisionHarness({ script: [text('ok')] });
    const png = Buffer.from(await solidPng(8, 8)).toString('base64');
    await harness.service.analyzeImages({ sources: [`data:image/jpeg;base64,${png}`], prompt: 'p' });
    const body = JSON.stringify(harness.provider.requests[0]!.body);
    expect(body).toContain('data:image/png;base64,');
    expect(body).not.toMatch(/"url":"data:image\/jpeg/);
  });

  it('decodes an image at most once per session, even when it is sent again', async () => {
    harness = await startVisionHarness({ script: [text('one'), text('two')] });
    const a = await writePng(harness.dir, 'a.png', 32, 32);
    const first = await harness.service.analyzeImages({ sources: [a, a], prompt: 'p1' });
    expect(first.imageIndexes).toEqual([0]);
    await harness.service.analyzeImages({ sources: [a], prompt: 'again', sessionId: first.sessionId });
    expect(harness.prepareCalls()).toBe(1);
    expect(countImageParts(harness.provider.requests[1]!.body)).toBe(1);
  });

  it('leaves the history untouched when the model call fails', async () => {
    harness = await startVisionHarness({ script: [text('first answer'), { error: { status: 400, body: { error: { message: 'bad' } } } }, text('third answer')] });
    const a = await writePng(harness.dir, 'a.png', 32, 32);
    const first = await harness.service.analyzeImages({ sources: [a], prompt: 'p1' });
    const b = await writePng(harness.dir, 'b.png', 16, 16, [0, 255, 0]);
    await expect(harness.service.analyzeImages({ sources: [b], prompt: 'p2', sessionId: first.sessionId })).rejects.toMatchObject({ code: 'LLM_BAD_REQUEST' });
    const [listed] = harness.service.listSessions();
    expect(listed).toMatchObject({ iterations: 1, imageCount: 1 });
    const third = await harness.service.analyzeImages({ sources: [], prompt: 'p3', sessionId: first.sessionId });
    expect(third.description).toBe('third answer');
    const lastBody = JSON.stringify(harness.provider.requests[2]!.body);
    expect(lastBody).not.toContain('p2');
    expect(countImageParts(harness.provider.requests[2]!.body)).toBe(1);
  });

  it('creates no session when the first call fails', async () => {
    harness = await startVisionHarness({ script: [{ error: { status: 400 } }] });
    const a = await writePng(harness.dir, 'a.png', 32, 32);
    await expect(harness.service.analyzeImages({ sources: [a], prompt: 'p' })).rejects.toMatchObject({ code: 'LLM_BAD_REQUEST' });
    expect(harness.service.listSessions()).toEqual([]);
  });

  it('runs turns of one session strictly one after another', async () => {
    harness = await startVisionHarness({
      script: (_request: CapturedRequest, index: number) => (index === 0 ? text('created') : { text: `answer ${index}`, delayMs: index === 1 ? 150 : 0 }),
    });
    const a = await writePng(harness.dir, 'a.png', 32, 32);
    const { sessionId } = await harness.service.analyzeImages({ sources: [a], prompt: 'start' });
    const [x, y] = await Promise.all([
      harness.service.analyzeImages({ sources: [], prompt: 'question X', sessionId }),
      harness.service.analyzeImages({ sources: [], prompt: 'question Y', sessionId }),
    ]);
    expect([x.description, y.description]).toEqual(['answer 1', 'answer 2']);
    // Y was sent only after X finished: its history already holds X's answer.
    expect(JSON.stringify(harness.provider.requests[2]!.body)).toContain('answer 1');
  });

  it('runs turns of different sessions in parallel', async () => {
    let releaseFirst: () => void = () => undefined;
    const firstArrived = new Promise<void>((resolve) => (releaseFirst = resolve));
    harness = await startVisionHarness({
      script: async (request: CapturedRequest, index: number) => {
        if (index < 2) return text(`created ${index}`);
        if (JSON.stringify(request.body).includes('to A')) {
          // A's reply waits until B's request has arrived: a serial engine would deadlock here.
          await firstArrived;
          return text('A done');
        }
        releaseFirst();
        return text('B done');
      },
    });
    const a = await writePng(harness.dir, 'a.png', 32, 32);
    const b = await writePng(harness.dir, 'b.png', 32, 32, [1, 2, 3]);
    const sa = await harness.service.analyzeImages({ sources: [a], prompt: 'start A' });
    const sb = await harness.service.analyzeImages({ sources: [b], prompt: 'start B' });
    const results = await Promise.all([
      harness.service.analyzeImages({ sources: [], prompt: 'to A', sessionId: sa.sessionId }),
      harness.service.analyzeImages({ sources: [], prompt: 'to B', sessionId: sb.sessionId }),
    ]);
    expect(results.map((r) => r.description)).toEqual(['A done', 'B done']);
  });

  it('expires idle sessions after the TTL but never a session with a turn in progress', async () => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    harness = await startVisionHarness({
      settings: { sessionTtlMs: 60_000 },
      script: async (_r: CapturedRequest, index: number) => {
        if (index === 2) await held;
        return text(`reply ${index}`);
      },
    });
    const a = await writePng(harness.dir, 'a.png', 32, 32);
    const idle = await harness.service.analyzeImages({ sources: [a], prompt: 'idle' });
    const busy = await harness.service.analyzeImages({ sources: [a], prompt: 'busy' });
    harness.clock.advance(30_000);
    expect(harness.service.sweepExpired()).toEqual({ deleted: [], skippedBusy: [] });
    expect(harness.service.listSessions()).toHaveLength(2);
    const running = harness.service.analyzeImages({ sources: [], prompt: 'still working', sessionId: busy.sessionId });
    await new Promise((resolve) => setTimeout(resolve, 100));
    harness.clock.advance(31_000);
    expect(harness.service.listSessions().map((s) => s.id)).toEqual([]);
    expect(harness.service.sweepExpired()).toEqual({ deleted: [idle.sessionId], skippedBusy: [busy.sessionId] });
    release();
    await expect(running).resolves.toMatchObject({ description: 'reply 2' });
    expect(harness.service.listSessions().map((s) => s.id)).toEqual([busy.sessionId]);
    await expect(harness.service.analyzeImages({ sources: [], prompt: 'gone?', sessionId: idle.sessionId })).rejects.toMatchObject({
      code: 'VISION_SESSION_NOT_FOUND',
      data: expect.objectContaining({ hint: expect.stringContaining('start a new session') }),
    });
  });

  it('keeps sessions, images and usage across a restart', async () => {
    harness = await startVisionHarness({ protocol: 'anthropic-messages', script: [text('before\nSUMMARY: Blue tile.'), text('after restart')] });
    const a = await writePng(harness.dir, 'a.png', 40, 40, [0, 0, 200]);
    const first = await harness.service.analyzeImages({ sources: [a], prompt: 'p1' });
    const service = harness.restart();
    expect(service.listSessions()).toMatchObject([{ id: first.sessionId, summary: 'Blue tile.', iterations: 1, sources: [a] }]);
    const second = await service.analyzeImages({ sources: [], prompt: 'p2', sessionId: first.sessionId });
    expect(second.description).toBe('after restart');
    expect(countImageParts(harness.provider.requests[1]!.body)).toBe(1);
    expect(second.sessionUsage.calls).toBe(2);
  });

  it('states the budget policy and sends only the newest images when a session outgrows it', async () => {
    harness = await startVisionHarness({ settings: { budget: { maxImages: 2, maxPixels: 8_000_000 } }, script: [text('1'), text('2'), text('3')] });
    const files = await Promise.all([0, 1, 2].map((i) => writePng(harness!.dir, `${i}.png`, 20, 20, [i * 50, 0, 0])));
    const first = await harness.service.analyzeImages({ sources: [files[0]!], prompt: 'p1' });
    await harness.service.analyzeImages({ sources: [files[1]!], prompt: 'p2', sessionId: first.sessionId });
    const third = await harness.service.analyzeImages({ sources: [files[2]!], prompt: 'p3', sessionId: first.sessionId });
    expect(third.budgetNote).toMatch(/#0/);
    expect(countImageParts(harness.provider.requests[2]!.body)).toBe(2);
    expect(JSON.stringify(harness.provider.requests[2]!.body)).toContain('not re-sent this turn');
  });
});
