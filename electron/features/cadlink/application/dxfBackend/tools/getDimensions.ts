import { z } from 'zod';
import { filterEntities, r6 } from '../../../../drawing';
import { bboxSchema, defineTool, jsonResult, layoutSchema, toBox } from '../session';

const DIM_TYPES = ['linear', 'aligned', 'angular', 'diameter', 'radius', 'angular3p', 'ordinate'];

export const getDimensions = defineTool({
  name: 'get_dimensions',
  description: 'DIMENSION entities: type, measured value, text override ("" = measured value shown), text position, block.',
  input: z.object({ layout: layoutSchema, bbox: bboxSchema.optional() }).strict(),
  run(session, input) {
    const dims = filterEntities(session.index, { layout: input.layout, types: ['DIMENSION', 'ARC_DIMENSION'], ...(input.bbox ? { bbox: toBox(input.bbox) } : {}) });
    return jsonResult({
      dimensions: dims.map((e) => {
        const g = e.geometry;
        if (g.kind !== 'dimension') return { handle: e.handle, type: e.type, layer: e.layer };
        return { handle: e.handle, layer: e.layer, dimType: DIM_TYPES[g.dimType] ?? String(g.dimType), measurement: g.measurement === null ? null : r6(g.measurement), textOverride: g.textOverride, textAt: [r6(g.textAt.x), r6(g.textAt.y)], block: g.blockName };
      }),
    });
  },
});
