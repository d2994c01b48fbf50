import { z } from 'zod';
import { AppError } from '../../../../../../shared/errors';
import { defineTool, jsonResult } from '../session';

/** `<dir>/<name>.ai-review.dxf` next to the source file. */
export function reviewCopyPath(source: string): string {
  const cut = Math.max(source.lastIndexOf('/'), source.lastIndexOf('\\')) + 1;
  const name = source.slice(cut).replace(/\.dxf$/i, '');
  return `${source.slice(0, cut)}${name}.ai-review.dxf`;
}

export const saveDrawing = defineTool({
  name: 'save_drawing',
  description: 'Writes the drawing with all added annotations to <name>.ai-review.dxf next to the original (or path). Overwriting the original requires overwrite_original: true (CAD_DXF_OVERWRITE_REFUSED otherwise).',
  input: z.object({ path: z.string().min(1).optional(), overwrite_original: z.boolean().default(false) }).strict(),
  async run(session, input) {
    const target = input.path ?? reviewCopyPath(session.deps.sourcePath);
    if (target === session.deps.sourcePath && !input.overwrite_original) {
      throw new AppError('CAD_DXF_OVERWRITE_REFUSED', 'refusing to overwrite the original drawing; pass overwrite_original: true or choose another path', { data: { path: target } });
    }
    const saved = await session.deps.sink.save(target, session.serialise());
    return jsonResult({ ok: true, path: saved.path, bytes: saved.bytes, annotations: session.annotationCount });
  },
});
