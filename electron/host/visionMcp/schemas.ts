import { z } from 'zod';

/*
 * Schemas are terse on purpose: tools/list is read into every agent's context, so it stays under
 * 6 KB. Field meanings are in the README's cadsight-vision section and skills/cadsight-vision.
 */

/** Usage numbers, returned only when a call passes verbose (or CADSIGHT_VISION_VERBOSE is set). */
// { calls, prompt_tokens, cached_prompt_tokens, completion_tokens, context_bytes, latency_ms } (usageView);
// left untyped in the published schema: it is ours to fill, and its shape would cost 8 × 90 bytes.
export const usageSchema = z.unknown();

/** The `verbose` argument every model-calling tool takes. */
export const verboseArg = z.boolean().optional();

/** Output shape shared by analyze_images, zoom_image and analyze_video (picsense fields first). */
export const turnOutputShape = {
  session_id: z.string(),
  summary: z.string(),
  description: z.string(),
  usage: usageSchema.optional(),
  session_usage: usageSchema.optional(),
  image_indexes: z.array(z.number()),
  budget_note: z.string().optional(),
};
