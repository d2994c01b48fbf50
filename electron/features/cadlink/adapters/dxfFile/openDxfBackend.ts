import { createDxfToolProvider } from '../../application/dxfBackend/dxfToolProvider';
import type { DxfSession } from '../../application/dxfBackend/session';
import type { ToolProvider } from '../../ports/toolProvider';
import { createCanvasDxfRenderer, DEFAULT_DXF_LIMITS, openDxfFile, type DxfSizeLimits } from '../../../drawing';
import { createConfinedSaveLocator, type SavePolicy } from '../savePolicy/confinedSavePath';
import { createDxfFileSink } from './dxfFileSink';

/**
 * Opens a DXF file and returns the embedded backend serving it (Skia canvas screenshots, saves in
 * the file's own encoding, confined by `save`). Errors: CAD_DXF_NOT_FOUND, CAD_DXF_TOO_LARGE (over
 * `limits`), CAD_DWG_UNSUPPORTED, CAD_DXF_INVALID, CAD_RENDER_FONT_MISSING.
 */
export async function openDxfBackend(path: string, options: { fontFiles?: string[]; save?: SavePolicy; limits?: DxfSizeLimits } = {}): Promise<ToolProvider & { session: DxfSession }> {
  const opened = await openDxfFile(path, options.limits ?? DEFAULT_DXF_LIMITS);
  return createDxfToolProvider({
    document: opened.document,
    sourcePath: path,
    renderer: createCanvasDxfRenderer(options.fontFiles),
    sink: createDxfFileSink(opened.encoding),
    saveLocator: createConfinedSaveLocator(path, options.save),
  });
}
