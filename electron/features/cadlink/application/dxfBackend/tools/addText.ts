import { z } from 'zod';
import { textTags } from '../../../../drawing';
import { defineTool, jsonResult } from '../session';

export const addText = defineTool({
  name: 'add_text',
  description: 'Adds a TEXT on layer AI_REVIEW (created when missing) in model space or a paper layout (layout), in CadSight\'s CJK style (gbenor.shx + gbcbig.shx, created when missing). Kept in memory until save_drawing.',
  input: z
    .object({
      position: z.tuple([z.number(), z.number()]),
      text: z.string().min(1).max(2000),
      height: z.number().positive().default(2.5),
      rotation: z.number().default(0),
      layout: z.string().min(1).max(255).optional().describe('Layout to write into: "Model" (default) or a paper layout tab; coordinates are that space\'s (sheet coordinates on a paper layout)'),
    })
    .strict(),
  run(session, input) {
    const { dialect, target, layout } = session.noteTarget(input.layout);
    const tags = textTags(dialect, session.handles, { x: input.position[0], y: input.position[1] }, input.height, input.text, input.rotation, target);
    session.addEntities(tags, layout);
    return jsonResult({ ok: true, handle: tags.find(([c]) => c === 5)?.[1] ?? null, layer: 'AI_REVIEW', layout, style: dialect.textStyle ?? null });
  },
});
