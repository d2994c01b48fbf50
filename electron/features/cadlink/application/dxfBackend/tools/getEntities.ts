import { z } from 'zod';
import { boxJson, entityJson, filterEntities, layoutByName, seenThroughViewports } from '../../../../drawing';
import { bboxSchema, defineTool, jsonResult, layoutSchema, toBox } from '../session';

export const getEntities = defineTool({
  name: 'get_entities',
  description:
    'Top-level entities of a layout, filtered by type, layer and bbox intersection, with limit/offset paging. With through_viewports on a paper layout, also the model-space entities its viewports show (space "model", viewport handle, bbox on the sheet, model_bbox in model space; their geometry fields stay in model coordinates).',
  input: z
    .object({
      layout: layoutSchema,
      types: z.array(z.string()).optional().describe('Entity types, e.g. ["LINE","INSERT"]'),
      layers: z.array(z.string()).optional(),
      bbox: bboxSchema.optional(),
      limit: z.number().int().min(1).max(5000).default(200),
      offset: z.number().int().min(0).default(0),
      through_viewports: z.boolean().default(false).describe('Paper layouts: include what the viewports show of model space (the sheet as plotted)'),
    })
    .strict(),
  run(session, input) {
    const bbox = input.bbox ? toBox(input.bbox) : undefined;
    const own = filterEntities(session.index, { layout: input.layout, types: input.types, layers: input.layers, ...(bbox ? { bbox } : {}) });
    if (!input.through_viewports) {
      const page = own.slice(input.offset, input.offset + input.limit);
      return jsonResult({ total: own.length, offset: input.offset, count: page.length, entities: page.map((e) => entityJson(session.index, e)) });
    }
    const types = input.types?.length ? new Set(input.types.map((t) => t.toUpperCase())) : undefined;
    const layers = input.layers?.length ? new Set(input.layers.map((l) => l.toUpperCase())) : undefined;
    const seen = seenThroughViewports(session.index, layoutByName(session.index, input.layout), bbox).filter((s) => (!types || types.has(s.entity.type)) && (!layers || layers.has(s.entity.layer.toUpperCase())));
    const rows: (() => Record<string, unknown>)[] = [
      ...own.map((e) => () => ({ ...entityJson(session.index, e), space: 'paper' })),
      ...seen.map((s) => () => ({ ...entityJson(session.index, s.entity), space: 'model', viewport: s.viewport.entity.handle, bbox: boxJson(s.paperBox), model_bbox: boxJson(s.modelBox) })),
    ];
    const page = rows.slice(input.offset, input.offset + input.limit);
    return jsonResult({ total: rows.length, offset: input.offset, count: page.length, entities: page.map((row) => row()) });
  },
});
