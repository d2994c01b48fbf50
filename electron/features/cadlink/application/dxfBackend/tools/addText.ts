import { z } from 'zod';
import { textTags } from '../../../../drawing';
import { defineTool, jsonResult } from '../session';

export const addText = defineTool({
  name: 'add_text',
  description: 'Adds a TEXT on layer AI_REVIEW (created when missing). Kept in memory until save_drawing.',
  input: z.object({ position: z.tuple([z.number(), z.number()]), text: z.string().min(1).max(2000), height: z.number().positive().default(2.5), rotation: z.number().default(0) }).strict(),
  run(session, input) {
    const tags = textTags(session.dialect, session.handles, { x: input.position[0], y: input.position[1] }, input.height, input.text, input.rotation);
    session.addEntities(tags);
    return jsonResult({ ok: true, handle: tags.find(([c]) => c === 5)?.[1] ?? null, layer: 'AI_REVIEW' });
  },
});
