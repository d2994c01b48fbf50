import { z } from 'zod';
import { filterEntities, measureDimension, r6, type DxfEntity } from '../../../../drawing';
import { bboxSchema, defineTool, jsonResult, layoutSchema, toBox } from '../session';

export const getDimensions = defineTool({
  name: 'get_dimensions',
  description:
    'DIMENSION entities: type, stored measurement (group 42, null when the file omits it), the value measured from the definition points with the style\'s DIMLFAC/DIMDEC/DIMRND (displayValue = what the style would print), text override ("" = measured value shown), the text the dimension block shows and its height (blockTextHeight), text position, block.',
  input: z.object({ layout: layoutSchema, bbox: bboxSchema.optional() }).strict(),
  run(session, input) {
    const dims = filterEntities(session.index, { layout: input.layout, types: ['DIMENSION', 'ARC_DIMENSION'], ...(input.bbox ? { bbox: toBox(input.bbox) } : {}) });
    return jsonResult({
      dimensions: dims.map((e) => {
        const g = e.geometry;
        if (g.kind !== 'dimension') return { handle: e.handle, type: e.type, layer: e.layer };
        const m = measureDimension(session.doc, e);
        return {
          handle: e.handle,
          layer: e.layer,
          dimType: m?.kind ?? String(g.dimType),
          measurement: g.measurement === null ? null : r6(g.measurement),
          measured: m?.measured == null ? null : r6(m.measured),
          displayValue: m?.displayValue ?? null,
          display: m ? { linearFactor: m.linearFactor, decimals: m.decimals, roundTo: m.roundTo, suppressTrailingZeros: m.suppressTrailingZeros } : null,
          textOverride: g.textOverride,
          blockText: m?.blockText ?? null,
          textAt: [r6(g.textAt.x), r6(g.textAt.y)],
          block: g.blockName,
          ...blockTextHeight(session.doc.blocks.get(g.blockName)?.entities ?? []),
        };
      }),
    });
  },
});

/** Height of the first text the dimension's block draws (DIMTXT × DIMSCALE as it prints), when there is one. */
function blockTextHeight(entities: readonly DxfEntity[]): { blockTextHeight?: number } {
  for (const e of entities) if (e.geometry.kind === 'text' && e.geometry.text.trim() !== '' && e.geometry.height > 0) return { blockTextHeight: r6(e.geometry.height) };
  return {};
}
