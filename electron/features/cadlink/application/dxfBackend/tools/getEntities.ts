import { z } from 'zod';
import { entityJson, filterEntities } from '../../../../drawing';
import { bboxSchema, defineTool, jsonResult, layoutSchema, toBox } from '../session';

export const getEntities = defineTool({
  name: 'get_entities',
  description: 'Top-level entities of a layout, filtered by type, layer and bbox intersection, with limit/offset paging.',
  input: z
    .object({
      layout: layoutSchema,
      types: z.array(z.string()).optional().describe('Entity types, e.g. ["LINE","INSERT"]'),
      layers: z.array(z.string()).optional(),
      bbox: bboxSchema.optional(),
      limit: z.number().int().min(1).max(5000).default(200),
      offset: z.number().int().min(0).default(0),
    })
    .strict(),
  run(session, input) {
    const all = filterEntities(session.index, { layout: input.layout, types: input.types, layers: input.layers, ...(input.bbox ? { bbox: toBox(input.bbox) } : {}) });
    const page = all.slice(input.offset, input.offset + input.limit);
    return jsonResult({ total: all.length, offset: input.offset, count: page.length, entities: page.map((e) => entityJson(session.index, e)) });
  },
});
