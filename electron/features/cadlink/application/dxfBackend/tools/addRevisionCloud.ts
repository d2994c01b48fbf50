import { z } from 'zod';
import { revisionCloudTags } from '../../../../drawing';
import { bboxSchema, defineTool, jsonResult, toBox } from '../session';

export const addRevisionCloud = defineTool({
  name: 'add_revision_cloud',
  description: 'Adds a revision cloud (closed polyline of arcs) around bbox on layer AI_REVIEW, in model space or a paper layout (layout).',
  input: z
    .object({
      bbox: bboxSchema,
      arc_length: z.number().positive().optional(),
      layout: z.string().min(1).max(255).optional().describe('Layout to write into: "Model" (default) or a paper layout tab; coordinates are that space\'s (sheet coordinates on a paper layout)'),
    })
    .strict(),
  run(session, input) {
    const { dialect, target, layout } = session.noteTarget(input.layout);
    const tags = revisionCloudTags(dialect, session.handles, toBox(input.bbox), input.arc_length, target);
    session.addEntities(tags, layout);
    return jsonResult({ ok: true, handle: tags.find(([c]) => c === 5)?.[1] ?? null, layer: 'AI_REVIEW', layout });
  },
});
