import { existsSync } from 'node:fs';
import { Resvg } from '@resvg/resvg-js';
import type { DxfScreenshotRenderer } from '../../ports/drawingRenderer';
import { loadOutliner } from './glyphOutliner';
import { buildSvg } from './svgBuilder';

/** Where Debian/Ubuntu (fonts-noto-cjk) and Fedora put the Noto CJK collections. */
export const DEFAULT_CJK_FONT_FILES = [
  '/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc',
  '/usr/share/fonts/noto-cjk/NotoSansCJK-Regular.ttc',
  '/usr/share/fonts/google-noto-cjk/NotoSansCJK-Regular.ttc',
  '/usr/share/fonts/opentype/noto/NotoSerifCJK-Regular.ttc',
];
/** The Simplified Chinese face of the collection (Chinese drawings are the main audience). */
const CJK_FACE = 'NotoSansCJKsc-Regular';

/**
 * Screenshot renderer: the SVG (linework + text as glyph outlines of an explicitly loaded CJK
 * font) rasterised by resvg. No system font discovery, so output does not depend on what else is
 * installed. Throws CAD_RENDER_FONT_MISSING at creation when no CJK font file can be loaded.
 */
export function createResvgDxfRenderer(fontFiles: string[] = DEFAULT_CJK_FONT_FILES): DxfScreenshotRenderer {
  const { outliner } = loadOutliner(fontFiles, CJK_FACE, existsSync);
  return {
    async render({ index, layout, bbox, maxEdge, highlight, hiddenLayers }) {
      const view = buildSvg(index, layout, bbox, maxEdge, highlight, outliner, hiddenLayers);
      const png = new Resvg(view.svg, { font: { loadSystemFonts: false }, background: '#ffffff' }).render().asPng();
      return { png, width: view.width, height: view.height, pixelsPerUnit: view.pixelsPerUnit };
    },
  };
}
