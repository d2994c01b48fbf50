import { z } from 'zod';
import { findZeroLength, boxJson, filterEntities } from '../../../../drawing';
import { bboxSchema, defineTool, jsonResult, layoutSchema, toBox } from '../session';

export const findZeroLengthTool = defineTool({
  name: 'find_zero_length',
  description: 'Zero-length LINEs/polylines and zero-radius CIRCLEs/ARCs (length or radius ≤ tolerance).',
  input: z.object({ layout: layoutSchema, bbox: bboxSchema.optional(), tolerance: z.number().min(0).default(1e-9) }).strict(),
  run(session, input) {
    const entities = filterEntities(session.index, { layout: input.layout, ...(input.bbox ? { bbox: toBox(input.bbox) } : {}) });
    const found = findZeroLength(entities, input.tolerance);
    return jsonResult({ count: found.length, entities: found.map((f) => ({ handle: f.entity.handle, type: f.entity.type, layer: f.entity.layer, reason: f.reason, bbox: boxJson(session.index.box(f.entity)) })) });
  },
});
