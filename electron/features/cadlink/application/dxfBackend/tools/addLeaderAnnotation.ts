import { z } from 'zod';
import { leaderTags, reviewIdXdata } from '../../../../drawing';
import { defineTool, jsonResult } from '../session';

export const addLeaderAnnotation = defineTool({
  name: 'add_leader_annotation',
  description:
    'Adds a leader with text on layer AI_REVIEW, in model space or a paper layout (layout), the text in CadSight\'s CJK style (gbenor.shx + gbcbig.shx, created when missing). points: at least 2 [x, y], the first is the arrow tip; the text sits at the last point. reviewId: an id kept in the text\'s XDATA (CADSIGHT_REVIEW), not shown; idStored says whether the file could hold it (files without an APPID table cannot).',
  input: z
    .object({
      points: z.array(z.tuple([z.number(), z.number()])).min(2).max(50),
      text: z.string().min(1).max(2000),
      height: z.number().positive().default(2.5),
      reviewId: z.string().regex(/^[0-9A-Za-z_-]{1,64}$/).optional(),
      layout: z.string().min(1).max(255).optional().describe('Layout to write into: "Model" (default) or a paper layout tab; coordinates are that space\'s (sheet coordinates on a paper layout)'),
    })
    .strict(),
  run(session, input) {
    const { dialect, target, layout } = session.noteTarget(input.layout);
    const stored = input.reviewId !== undefined && session.ensureReviewApp();
    const xdata = stored ? reviewIdXdata(input.reviewId!) : [];
    const tags = leaderTags(dialect, session.handles, input.points.map(([x, y]) => ({ x, y })), input.text, input.height, xdata, target);
    session.addEntities(tags, layout);
    return jsonResult({ ok: true, handles: tags.filter(([c]) => c === 5).map(([, v]) => v), layer: 'AI_REVIEW', layout, style: dialect.textStyle ?? null, idStored: stored });
  },
});
