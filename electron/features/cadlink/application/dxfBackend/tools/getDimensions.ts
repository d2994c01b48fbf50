import { z } from 'zod';
import { filterEntities, mtextToPlain, r6, type DxfEntity } from '../../../../drawing';
import { bboxSchema, defineTool, jsonResult, layoutSchema, toBox } from '../session';

const DIM_TYPES = ['linear', 'aligned', 'angular', 'diameter', 'radius', 'angular3p', 'ordinate'];

export const getDimensions = defineTool({
  name: 'get_dimensions',
  description: 'DIMENSION entities: type, measured value, text override ("" = measured value shown), text position, block, and the text the block actually shows (renderedText, renderedHeight: what DIMLFAC/DIMPOST/rounding made of the value).',
  input: z.object({ layout: layoutSchema, bbox: bboxSchema.optional() }).strict(),
  run(session, input) {
    const dims = filterEntities(session.index, { layout: input.layout, types: ['DIMENSION', 'ARC_DIMENSION'], ...(input.bbox ? { bbox: toBox(input.bbox) } : {}) });
    return jsonResult({
      dimensions: dims.map((e) => {
        const g = e.geometry;
        if (g.kind !== 'dimension') return { handle: e.handle, type: e.type, layer: e.layer };
        const shown = renderedText(session.doc.blocks.get(g.blockName)?.entities ?? []);
        return { handle: e.handle, layer: e.layer, dimType: DIM_TYPES[g.dimType] ?? String(g.dimType), measurement: g.measurement === null ? null : r6(g.measurement), textOverride: g.textOverride, textAt: [r6(g.textAt.x), r6(g.textAt.y)], block: g.blockName, ...(shown ? { renderedText: shown.text, renderedHeight: r6(shown.height) } : {}) };
      }),
    });
  },
});

/**
 * The text a dimension's anonymous block draws (its first TEXT/MTEXT). A stacked tolerance
 * (\S+0^-0.05;) is kept apart as " +0/-0.05" so "75" and its tolerance do not run together.
 */
function renderedText(entities: readonly DxfEntity[]): { text: string; height: number } | undefined {
  for (const e of entities) {
    const g = e.geometry;
    if (g.kind !== 'text') continue;
    const text = g.mtext ? mtextToPlain(g.raw.replace(/\\S([^^/#;]*)[\^/#]([^;]*);/g, ' $1/$2')).trim() : g.text.trim();
    if (text !== '') return { text, height: g.height };
  }
  return undefined;
}
