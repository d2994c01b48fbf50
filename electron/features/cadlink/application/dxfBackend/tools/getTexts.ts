import { z } from 'zod';
import { boxesIntersect, primitiveBox, layoutByName, r6, reviewIdOf } from '../../../../drawing';
import { bboxSchema, defineTool, jsonResult, layoutSchema, toBox } from '../session';

const TEXT_SOURCES = new Set(['TEXT', 'MTEXT', 'INSERT', 'MULTILEADER', 'MLEADER', 'DIMENSION']);

export const getTexts = defineTool({
  name: 'get_texts',
  description: 'Plain texts of a layout in world coordinates (TEXT, MTEXT, block attributes and texts inside blocks, leader texts), optionally within a bbox; reviewId = the CadSight review id in the text\'s XDATA.',
  input: z.object({ layout: layoutSchema, bbox: bboxSchema.optional(), limit: z.number().int().min(1).max(20000).default(2000), offset: z.number().int().min(0).default(0) }).strict(),
  run(session, input) {
    const layout = layoutByName(session.index, input.layout);
    const bbox = input.bbox ? toBox(input.bbox) : undefined;
    const texts = [];
    for (const entity of bbox ? session.index.entitiesIn(layout, bbox) : layout.entities) {
      if (!TEXT_SOURCES.has(entity.type)) continue;
      const reviewId = reviewIdOf(session.doc, entity);
      for (const p of session.index.primitives(entity)) {
        if (p.kind !== 'text' || (bbox && !boxesIntersect(primitiveBox(p), bbox))) continue;
        texts.push({ handle: entity.handle, source: entity.type, text: p.text, at: [r6(p.at.x), r6(p.at.y)], height: r6(p.height), rotation: r6(p.rotation), layer: p.layer, ...(p.tag === undefined ? {} : { attributeTag: p.tag }), ...(reviewId ? { reviewId } : {}) });
      }
    }
    return jsonResult({ total: texts.length, offset: input.offset, texts: texts.slice(input.offset, input.offset + input.limit) });
  },
});
