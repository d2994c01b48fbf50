import { z } from 'zod';
import { revisionCloudTags } from '../../../../drawing';
import { bboxSchema, defineTool, jsonResult, toBox } from '../session';

export const addRevisionCloud = defineTool({
  name: 'add_revision_cloud',
  description: 'Adds a revision cloud (closed polyline of arcs) around bbox on layer AI_REVIEW.',
  input: z.object({ bbox: bboxSchema, arc_length: z.number().positive().optional() }).strict(),
  run(session, input) {
    const tags = revisionCloudTags(session.dialect, session.handles, toBox(input.bbox), input.arc_length);
    session.addEntities(tags);
    return jsonResult({ ok: true, handle: tags.find(([c]) => c === 5)?.[1] ?? null, layer: 'AI_REVIEW' });
  },
});
