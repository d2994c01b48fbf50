import { z } from 'zod';
import { leaderTags, reviewIdXdata } from '../../../../drawing';
import { defineTool, jsonResult } from '../session';

export const addLeaderAnnotation = defineTool({
  name: 'add_leader_annotation',
  description:
    'Adds a leader with text on layer AI_REVIEW. points: at least 2 [x, y], the first is the arrow tip; the text sits at the last point. reviewId: an id kept in the text\'s XDATA (CADSIGHT_REVIEW), not shown; idStored says whether the file could hold it (files without an APPID table cannot).',
  input: z
    .object({
      points: z.array(z.tuple([z.number(), z.number()])).min(2).max(50),
      text: z.string().min(1).max(2000),
      height: z.number().positive().default(2.5),
      reviewId: z.string().regex(/^[0-9A-Za-z_-]{1,64}$/).optional(),
    })
    .strict(),
  run(session, input) {
    const stored = input.reviewId !== undefined && session.ensureReviewApp();
    const xdata = stored ? reviewIdXdata(input.reviewId!) : [];
    const tags = leaderTags(session.dialect, session.handles, input.points.map(([x, y]) => ({ x, y })), input.text, input.height, xdata);
    session.addEntities(tags);
    return jsonResult({ ok: true, handles: tags.filter(([c]) => c === 5).map(([, v]) => v), layer: 'AI_REVIEW', idStored: stored });
  },
});
