import type { DrawingIndex } from '../domain/bounds';
import type { Box } from '../domain/model';

/** Renders a region of a drawing layout to a PNG (the screenshot every CAD-link backend serves). */
export interface DxfScreenshotRenderer {
  /**
   * `bbox` in drawing units; the long edge of the image is `maxEdge` pixels. Highlight boxes are
   * drawn as red rectangles. `hiddenLayers` (upper-case names) are left out like layers that are
   * off or frozen (a viewer's visibility toggles). Throws CAD_RENDER_FONT_MISSING when no CJK font is installed.
   */
  render(request: { index: DrawingIndex; layout: string; bbox: Box; maxEdge: number; highlight: Box[]; hiddenLayers?: ReadonlySet<string> }): Promise<{ png: Uint8Array; width: number; height: number; pixelsPerUnit: number }>;
}
