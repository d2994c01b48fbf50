import { z } from 'zod';
import { boxesIntersect, framesInBox, boxJson, layoutViewports, r6, type DrawingFrame } from '../../../../drawing';
import { bboxSchema, defineTool, jsonResult, layoutSchema, toBox, type DxfSession } from '../session';

/** The model viewports a paper frame shows (clip box on the sheet, model box, model units per paper unit). */
function sheetViewports(session: DxfSession, frame: DrawingFrame): { viewports?: unknown[] } {
  const layout = session.doc.layouts.find((l) => l.name === frame.layout);
  if (!layout?.paperSpace) return {};
  const viewports = layoutViewports(session.index, layout)
    .filter((v) => boxesIntersect(v.clipBox, frame.bbox))
    .map((v) => ({ handle: v.entity.handle, bbox: boxJson(v.clipBox), modelBbox: boxJson(v.modelBox), scale: r6(1 / v.scale) }));
  return viewports.length > 0 ? { viewports } : {};
}

export const findFramesTool = defineTool({
  name: 'find_frames',
  description: 'Drawing frames: frame/title-block block inserts, closed rectangles matching A0–A4 sheets (trim edge or inner border) at any uniform scale or drawn on a border layer, text-only title blocks, and paper layouts that are not just views of model frames (their paper as plotted, extent "paper", else their content), and a space without any border as one sheet of its extents (kind "extents"); paper frames list the model viewports they show (clip bbox on the sheet, modelBbox, scale = model units per paper unit); with the trimmed sheet (size in mm, margins, sheetBox), scale, paperUnitsPerMm for frames on paper layouts (1, or 1/25.4 when the paper is in inches) and title-block fields (title, drawingNo, scale, designer, checker, approver, date, revision, material, weight, sheetNo, sheetCount, organisation).',
  input: z.object({ layout: layoutSchema, bbox: bboxSchema.optional() }).strict(),
  run(session, input) {
    let frames = framesInBox(session.frames(), input.bbox ? toBox(input.bbox) : undefined);
    if (input.layout) frames = frames.filter((f) => f.layout.toUpperCase() === input.layout?.toUpperCase());
    // Paper-space coordinates are paper units: mm, or inches by the layout's plot settings (files
    // without them: by $MEASUREMENT, 0 = imperial). Model-space frames have no fixed paper unit.
    const imperial = session.doc.header.get('$MEASUREMENT')?.values[0]?.value.trim() === '0';
    const paperUnitsPerMm = (layoutName: string): number | undefined => {
      const layout = session.doc.layouts.find((l) => l.name.toUpperCase() === layoutName.toUpperCase());
      if (!layout?.paperSpace) return undefined;
      return (layout.paperUnits ?? (imperial ? 'inches' : 'mm')) === 'inches' ? 1 / 25.4 : 1;
    };
    return jsonResult({
      frames: frames.map((f) => ({
        id: f.id,
        kind: f.kind,
        layout: f.layout,
        bbox: boxJson(f.bbox),
        ...(f.handle ? { handle: f.handle } : {}),
        ...(f.blockName ? { block: f.blockName } : {}),
        sheet: f.sheet ? { ...f.sheet, scale: r6(f.sheet.scale) } : null,
        sheetBox: boxJson(f.sheetBox),
        titleBlock: f.titleBlock.fields,
        fieldSources: f.titleBlock.sources,
        ...(f.titleBlock.box ? { titleBlockBox: boxJson(f.titleBlock.box) } : {}),
        ...(f.viewportScales.length > 0 ? { viewportScales: f.viewportScales.map(r6) } : {}),
        ...(f.extent ? { extent: f.extent } : {}),
        ...sheetViewports(session, f),
        ...(paperUnitsPerMm(f.layout) === undefined ? {} : { paperUnitsPerMm: r6(paperUnitsPerMm(f.layout)!) }),
      })),
    });
  },
});
