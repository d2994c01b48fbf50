import { z } from 'zod';

/** Usage numbers returned in structured content. */
export const usageSchema = z.object({
  calls: z.number().int(),
  prompt_tokens: z.number().int().describe('Provider-reported prompt tokens (0 when not reported).'),
  completion_tokens: z.number().int(),
  context_bytes: z.number().int().describe('Bytes of the request bodies sent to the model.'),
  latency_ms: z.number(),
});

/** Output shape shared by analyze_images, zoom_image and analyze_video (picsense fields first). */
export const turnOutputShape = {
  session_id: z.string().describe('Pass this as session_id to ask follow-up questions about the same images.'),
  summary: z.string().describe('One-line summary of the session (generated on its first turn).'),
  description: z.string().describe('The answer of the vision model.'),
  usage: usageSchema.describe('Usage of this call.'),
  session_usage: usageSchema.describe('Running totals of the session.'),
  image_indexes: z.array(z.number().int()).describe('Session image indexes this call used (zoom_image takes them).'),
  budget_note: z.string().optional().describe('Set when the session image budget left older images out of this request.'),
};
