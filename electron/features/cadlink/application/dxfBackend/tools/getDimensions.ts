import { z } from 'zod';
import { apply, filterEntities, layoutByName, measureDimension, r6, seenThroughViewports, type DxfEntity } from '../../../../drawing';
import { bboxSchema, defineTool, jsonResult, layoutSchema, toBox, type DxfSession } from '../session';

export const getDimensions = defineTool({
  name: 'get_dimensions',
  description:
    'DIMENSION entities: type, stored measurement (group 42, null when the file omits it), the value measured from the definition points with the style\'s DIMLFAC/DIMDEC/DIMRND (displayValue = what the style would print), text override ("" = measured value shown), the text the dimension block shows and its height (blockTextHeight), text position, block.',
  input: z
    .object({
      layout: layoutSchema,
      bbox: bboxSchema.optional(),
      through_viewports: z.boolean().default(false).describe('Paper layouts: include the model-space dimensions the viewports show (space "model", viewport handle, textAt/blockTextHeight on the sheet, model_textAt in model space; measured values stay in model units)'),
    })
    .strict(),
  run(session, input) {
    const bbox = input.bbox ? toBox(input.bbox) : undefined;
    const own = filterEntities(session.index, { layout: input.layout, types: DIMENSION_TYPES, ...(bbox ? { bbox } : {}) });
    const rows: DimensionRow[] = own.map((e) => ({ ...dimensionJson(session, e), ...(input.through_viewports ? { space: 'paper' } : {}) }));
    if (input.through_viewports) {
      for (const seen of seenThroughViewports(session.index, layoutByName(session.index, input.layout), bbox)) {
        if (!DIMENSION_TYPES.includes(seen.entity.type)) continue;
        const row = dimensionJson(session, seen.entity);
        const at = row.textAt ? apply(seen.viewport.toPaper, { x: row.textAt[0]!, y: row.textAt[1]! }) : undefined;
        rows.push({
          ...row,
          ...(at ? { textAt: [r6(at.x), r6(at.y)], model_textAt: row.textAt } : {}),
          ...(row.blockTextHeight === undefined ? {} : { blockTextHeight: r6(row.blockTextHeight * seen.viewport.scale), model_blockTextHeight: row.blockTextHeight }),
          space: 'model',
          viewport: seen.viewport.entity.handle,
        });
      }
    }
    return jsonResult({ total: rows.length, dimensions: rows });
  },
});

const DIMENSION_TYPES = ['DIMENSION', 'ARC_DIMENSION'];

interface DimensionRow {
  handle: string;
  layer: string;
  textAt?: number[];
  blockTextHeight?: number;
  [key: string]: unknown;
}

/** One dimension as the tool reports it, in the coordinates of the space it is drawn in. */
function dimensionJson(session: DxfSession, e: DxfEntity): DimensionRow {
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
}

/** Height of the first text the dimension's block draws (DIMTXT × DIMSCALE as it prints), when there is one. */
function blockTextHeight(entities: readonly DxfEntity[]): { blockTextHeight?: number } {
  for (const e of entities) if (e.geometry.kind === 'text' && e.geometry.text.trim() !== '' && e.geometry.height > 0) return { blockTextHeight: r6(e.geometry.height) };
  return {};
}
