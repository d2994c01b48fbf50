import { z } from 'zod';
import { boxesIntersect, primitiveBox, layoutByName, r6, reviewIdOf, seenThroughViewports, sheetTexts } from '../../../../drawing';
import { bboxSchema, defineTool, jsonResult, layoutSchema, toBox } from '../session';

const TEXT_SOURCES = new Set(['TEXT', 'MTEXT', 'INSERT', 'MULTILEADER', 'MLEADER', 'DIMENSION', 'ACAD_TABLE', 'LEADER', 'ATTDEF']);

export const getTexts = defineTool({
  name: 'get_texts',
  description:
    'Plain texts of a layout in world coordinates (TEXT, MTEXT, block attributes and texts inside blocks, leader texts, table cells), optionally within a bbox; TEXT/MTEXT carry their text style and its fonts (font, bigFont; MTEXT inline \\f font as inlineFont); reviewId = the CadSight review id in the text\'s XDATA. With through_viewports on a paper layout, also the model-space texts its viewports show (space "model", viewport handle, at/height on the sheet, model_at/model_height in model space).',
  input: z
    .object({
      layout: layoutSchema,
      bbox: bboxSchema.optional(),
      limit: z.number().int().min(1).max(20000).default(2000),
      offset: z.number().int().min(0).default(0),
      through_viewports: z.boolean().default(false).describe('Paper layouts: include the model-space texts the viewports show'),
    })
    .strict(),
  run(session, input) {
    const layout = layoutByName(session.index, input.layout);
    const bbox = input.bbox ? toBox(input.bbox) : undefined;
    const texts = [];
    const fontsOf = (style: string | undefined): Record<string, string> => {
      const entry = style === undefined ? undefined : session.doc.styles.get(style.toUpperCase());
      return style === undefined ? {} : { style, ...(entry ? { font: entry.font, bigFont: entry.bigFont } : {}) };
    };
    for (const entity of bbox ? session.index.entitiesIn(layout, bbox) : layout.entities) {
      if (!TEXT_SOURCES.has(entity.type)) continue;
      const reviewId = reviewIdOf(session.doc, entity);
      const g = entity.geometry;
      const own = g.kind === 'text' ? { ...fontsOf(g.style), ...inlineFont(g.raw) } : {};
      for (const p of session.index.primitives(entity)) {
        if (p.kind !== 'text' || (bbox && !boxesIntersect(primitiveBox(p), bbox))) continue;
        texts.push({ handle: entity.handle, source: entity.type, text: p.text, at: [r6(p.at.x), r6(p.at.y)], height: r6(p.height), rotation: r6(p.rotation), layer: p.layer, ...(p.tag === undefined ? {} : { attributeTag: p.tag }), ...(reviewId ? { reviewId } : {}), ...own, ...(input.through_viewports ? { space: 'paper' } : {}) });
      }
    }
    if (input.through_viewports) {
      for (const seen of seenThroughViewports(session.index, layout, bbox)) {
        if (!TEXT_SOURCES.has(seen.entity.type)) continue;
        const sg = seen.entity.geometry;
        const seenOwn = sg.kind === 'text' ? { ...fontsOf(sg.style), ...inlineFont(sg.raw) } : {};
        for (const { sheet, model } of sheetTexts(session.index, seen)) {
          if (bbox && !boxesIntersect(primitiveBox(sheet), bbox)) continue;
          texts.push({ handle: seen.entity.handle, source: seen.entity.type, text: sheet.text, at: [r6(sheet.at.x), r6(sheet.at.y)], height: r6(sheet.height), rotation: r6(sheet.rotation), layer: sheet.layer, ...(sheet.tag === undefined ? {} : { attributeTag: sheet.tag }), space: 'model', viewport: seen.viewport.entity.handle, model_at: [r6(model.at.x), r6(model.at.y)], model_height: r6(model.height), ...seenOwn });
        }
      }
    }
    return jsonResult({ total: texts.length, offset: input.offset, texts: texts.slice(input.offset, input.offset + input.limit) });
  },
});

/** The first MTEXT inline font switch (\fSimSun|b0|i0;), which overrides the style's font for what follows. */
function inlineFont(raw: string): { inlineFont?: string } {
  const match = /\\[fF]([^|;\\]+)/.exec(raw);
  return match ? { inlineFont: match[1]!.trim() } : {};
}
