import { z } from 'zod';
import { leaderTags } from '../../../../drawing';
import { defineTool, jsonResult } from '../session';

export const addLeaderAnnotation = defineTool({
  name: 'add_leader_annotation',
  description: 'Adds a leader with text on layer AI_REVIEW. points: at least 2 [x, y], the first is the arrow tip; the text sits at the last point.',
  input: z.object({ points: z.array(z.tuple([z.number(), z.number()])).min(2).max(50), text: z.string().min(1).max(2000), height: z.number().positive().default(2.5) }).strict(),
  run(session, input) {
    const tags = leaderTags(session.dialect, session.handles, input.points.map(([x, y]) => ({ x, y })), input.text, input.height);
    session.addEntities(tags);
    return jsonResult({ ok: true, handles: tags.filter(([c]) => c === 5).map(([, v]) => v), layer: 'AI_REVIEW' });
  },
});
