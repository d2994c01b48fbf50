import { z } from 'zod';
import { AppError } from '../../../../../../shared/errors';
import { isEmptyBox, layoutByName, layoutExtents, r6 } from '../../../../drawing';
import { bboxSchema, defineTool, toBox } from '../session';

/** Margin around a frame so its border line is not cut by the image edge. */
const MARGIN = 0.02;

export const getScreenshot = defineTool({
  name: 'get_screenshot',
  description: 'PNG of a frame (frame_id from find_frames) or a bbox of a layout, white background, layer/ACI colours, CJK text; a paper layout is drawn as plotted (model space through its viewports, paper entities on top); optional red highlight boxes and hidden layers. Returns the image and the pixel↔drawing transform.',
  input: z
    .object({
      // Clients that read ids from find_frames as numbers send them back as numbers.
      frame_id: z.union([z.string().min(1).max(100), z.number().int().min(0)]).transform(String).optional(),
      bbox: bboxSchema.optional(),
      layout: z.string().optional(),
      max_edge: z.number().int().min(64).max(8192).default(1600),
      highlight: z.array(bboxSchema).max(200).default([]),
      hidden_layers: z.array(z.string().min(1).max(255)).max(2000).default([]).describe('Layers not drawn (besides those off or frozen in the file), e.g. a viewer\'s visibility toggles'),
    })
    .strict(),
  async run(session, input) {
    let layout = input.layout ?? 'Model';
    let box;
    if (input.frame_id !== undefined) {
      const frame = session.frames().find((f) => f.id === input.frame_id);
      if (!frame) throw new AppError('CAD_DXF_FRAME_NOT_FOUND', `no frame with id ${input.frame_id}; call find_frames first`, { data: { frame_id: input.frame_id } });
      layout = frame.layout;
      box = frame.bbox;
    } else if (input.bbox) {
      box = toBox(input.bbox);
    } else {
      box = layoutExtents(session.index, layoutByName(session.index, layout), { drawnOnly: true });
      if (isEmptyBox(box)) throw new AppError('CAD_DXF_EMPTY_REGION', `layout ${layout} has nothing to draw`, { data: { layout } });
    }
    layoutByName(session.index, layout);
    const mx = (box.maxX - box.minX) * MARGIN;
    const my = (box.maxY - box.minY) * MARGIN;
    const region = { minX: box.minX - mx, minY: box.minY - my, maxX: box.maxX + mx, maxY: box.maxY + my };
    const image = await session.deps.renderer.render({ index: session.index, layout, bbox: region, maxEdge: input.max_edge, highlight: input.highlight.map(toBox), hiddenLayers: new Set(input.hidden_layers.map((l) => l.toUpperCase())) });
    const transform = {
      width: image.width,
      height: image.height,
      pixelsPerUnit: r6(image.pixelsPerUnit),
      drawingBbox: [r6(region.minX), r6(region.minY), r6(region.maxX), r6(region.maxY)],
      // pixel (px, py) with py downwards  ↔  drawing (x, y)
      toDrawing: `x = ${r6(region.minX)} + px / ${r6(image.pixelsPerUnit)}; y = ${r6(region.maxY)} - py / ${r6(image.pixelsPerUnit)}`,
      layout,
    };
    return { content: [{ type: 'image', data: Buffer.from(image.png).toString('base64'), mimeType: 'image/png' }, { type: 'text', text: JSON.stringify(transform) }] };
  },
});
