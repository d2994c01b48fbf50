import { describe, expect, it } from 'vitest';
import { anthropicImageTokens, promptTokensOf } from './promptTokens';

/** The first bytes of a PNG of the given size (signature + IHDR), enough for the size reader. */
function pngHead(width: number, height: number): string {
  const bytes = Buffer.alloc(33);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(bytes, 0);
  bytes.writeUInt32BE(13, 8);
  bytes.write('IHDR', 12, 'latin1');
  bytes.writeUInt32BE(width, 16);
  bytes.writeUInt32BE(height, 20);
  // Pad like real pixel data so the string is as long as a real render's base64.
  return Buffer.concat([bytes, Buffer.alloc(60_000, 7)]).toString('base64');
}

describe('prompt tokens billed like a provider', () => {
  it('charges text at a quarter of its bytes', () => {
    const body = { messages: [{ role: 'user', content: 'x'.repeat(400) }] };
    expect(promptTokensOf(body, 420, 'openai')).toBe(105);
  });

  it('charges a 1600 × 1200 render by its pixels, not by its 80 kB of base64', () => {
    const png = pngHead(1600, 1200);
    const chat = { messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }, { type: 'image_url', image_url: { url: `data:image/png;base64,${png}` } }] }] };
    const raw = JSON.stringify(chat).length;
    const text = raw - `data:image/png;base64,${png}`.length;
    // OpenAI: fit to 768 on the short side → 1024 × 768 → 2 × 2 tiles → 85 + 4 × 170.
    expect(promptTokensOf(chat, raw, 'openai')).toBe(Math.ceil(text / 4) + 765);
    const anthropic = { messages: [{ role: 'user', content: [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: png } }] }] };
    const rawA = JSON.stringify(anthropic).length;
    expect(promptTokensOf(anthropic, rawA, 'anthropic')).toBe(Math.ceil((rawA - png.length) / 4) + anthropicImageTokens(1600, 1200));
    expect(promptTokensOf(chat, raw, 'openai')).toBeLessThan(raw / 40);
  });

  it('scales large images down before the Anthropic w × h / 750 rule and leaves small ones alone', () => {
    expect(anthropicImageTokens(200, 150)).toBe(40);
    const big = anthropicImageTokens(1600, 1200);
    expect(big).toBeLessThanOrEqual(Math.ceil(1_150_000 / 750) + 1);
    expect(big).toBeGreaterThan(1400);
  });

  it('leaves strings that are no PNG at bytes / 4', () => {
    const jpeg = `data:image/jpeg;base64,${Buffer.alloc(3000, 1).toString('base64')}`;
    const body = { messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: jpeg } }] }] };
    const raw = JSON.stringify(body).length;
    expect(promptTokensOf(body, raw, 'openai')).toBe(Math.ceil(raw / 4));
  });
});
