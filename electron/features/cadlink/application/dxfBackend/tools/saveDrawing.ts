import { z } from 'zod';
import { defineTool, jsonResult } from '../session';

export const saveDrawing = defineTool({
  name: 'save_drawing',
  description:
    'Writes the drawing with all added annotations to a new <name>.ai-review[-N].dxf next to the original (or path: a review-copy name next to the original, or a .dxf in the folder the server was started with via --output-dir). Existing files are never replaced unless the server was started with --allow-overwrite (CAD_DXF_OVERWRITE_REFUSED); other places give CAD_DXF_SAVE_REFUSED.',
  input: z.object({ path: z.string().min(1).max(4096).optional(), overwrite_original: z.boolean().default(false) }).strict(),
  async run(session, input) {
    const target = await session.deps.saveLocator.locate(input.path, input.overwrite_original);
    const saved = await session.deps.sink.save(target, session.serialise());
    return jsonResult({ ok: true, path: saved.path, bytes: saved.bytes, annotations: session.annotationCount });
  },
});
