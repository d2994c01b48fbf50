import { z } from 'zod';
import { findDuplicates, boxJson, filterEntities } from '../../../../drawing';
import { bboxSchema, defineTool, jsonResult, layoutSchema, toBox } from '../session';

export const findDuplicatesTool = defineTool({
  name: 'find_duplicate_entities',
  description: 'Groups of entities with the same type, layer and geometry (coordinates equal within tolerance).',
  input: z.object({ layout: layoutSchema, bbox: bboxSchema.optional(), tolerance: z.number().positive().default(1e-6) }).strict(),
  run(session, input) {
    const entities = filterEntities(session.index, { layout: input.layout, ...(input.bbox ? { bbox: toBox(input.bbox) } : {}) });
    const groups = findDuplicates(entities, input.tolerance);
    return jsonResult({ groupCount: groups.length, groups: groups.map((g) => ({ type: g[0]?.type, layer: g[0]?.layer, handles: g.map((e) => e.handle), bbox: g[0] ? boxJson(session.index.box(g[0])) : null })) });
  },
});
