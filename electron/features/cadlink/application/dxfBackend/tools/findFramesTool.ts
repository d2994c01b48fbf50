import { z } from 'zod';
import { framesInBox, boxJson, r6 } from '../../../../drawing';
import { bboxSchema, defineTool, jsonResult, layoutSchema, toBox } from '../session';

export const findFramesTool = defineTool({
  name: 'find_frames',
  description: 'Drawing frames: frame/title-block block inserts, closed rectangles matching A0–A4 sheets (trim edge or border) at any uniform scale, and paper layouts; with sheet size, scale and title-block fields (title, drawingNo, scale, designer, checker, date, revision).',
  input: z.object({ layout: layoutSchema, bbox: bboxSchema.optional() }).strict(),
  run(session, input) {
    let frames = framesInBox(session.frames(), input.bbox ? toBox(input.bbox) : undefined);
    if (input.layout) frames = frames.filter((f) => f.layout.toUpperCase() === input.layout?.toUpperCase());
    return jsonResult({
      frames: frames.map((f) => ({
        id: f.id,
        kind: f.kind,
        layout: f.layout,
        bbox: boxJson(f.bbox),
        ...(f.handle ? { handle: f.handle } : {}),
        ...(f.blockName ? { block: f.blockName } : {}),
        sheet: f.sheet ? { ...f.sheet, scale: r6(f.sheet.scale) } : null,
        titleBlock: f.titleBlock.fields,
        fieldSources: f.titleBlock.sources,
      })),
    });
  },
});
