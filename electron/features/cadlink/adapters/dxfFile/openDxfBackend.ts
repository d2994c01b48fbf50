import { createDxfToolProvider } from '../../application/dxfBackend/dxfToolProvider';
import type { DxfSession } from '../../application/dxfBackend/session';
import type { ToolProvider } from '../../ports/toolProvider';
import { createResvgDxfRenderer, openDxfFile } from '../../../drawing';
import { createConfinedSaveLocator, type SavePolicy } from '../savePolicy/confinedSavePath';
import { createDxfFileSink } from './dxfFileSink';

/**
 * Opens a DXF file and returns the embedded backend serving it (resvg screenshots, saves in the
 * file's own encoding, confined by `save`). Errors: CAD_DXF_NOT_FOUND, CAD_DWG_UNSUPPORTED,
 * CAD_DXF_INVALID, CAD_RENDER_FONT_MISSING.
 */
export async function openDxfBackend(path: string, options: { fontFiles?: string[]; save?: SavePolicy } = {}): Promise<ToolProvider & { session: DxfSession }> {
  const opened = await openDxfFile(path);
  return createDxfToolProvider({
    document: opened.document,
    sourcePath: path,
    renderer: createResvgDxfRenderer(options.fontFiles),
    sink: createDxfFileSink(opened.encoding),
    saveLocator: createConfinedSaveLocator(path, options.save),
  });
}
