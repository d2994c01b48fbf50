import { existsSync } from 'node:fs';
import { Resvg } from '@resvg/resvg-js';
import { AppError } from '../../../../../shared/errors';
import type { DxfScreenshotRenderer } from '../../application/dxfBackend/session';
import { buildSvg } from './svgBuilder';

/** Where Debian/Ubuntu (fonts-noto-cjk) and Fedora put the Noto CJK collections. */
export const DEFAULT_CJK_FONT_FILES = [
  '/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc',
  '/usr/share/fonts/noto-cjk/NotoSansCJK-Regular.ttc',
  '/usr/share/fonts/google-noto-cjk/NotoSansCJK-Regular.ttc',
  '/usr/share/fonts/opentype/noto/NotoSerifCJK-Regular.ttc',
];
const FONT_FAMILY = 'Noto Sans CJK SC';

/**
 * Screenshot renderer on resvg with explicitly loaded CJK fonts (system font discovery is off so
 * output does not depend on whatever else is installed). Throws CAD_RENDER_FONT_MISSING at
 * creation when none of the font files exists.
 */
export function createResvgDxfRenderer(fontFiles: string[] = DEFAULT_CJK_FONT_FILES): DxfScreenshotRenderer {
  const present = fontFiles.filter((f) => existsSync(f));
  if (present.length === 0) {
    throw new AppError('CAD_RENDER_FONT_MISSING', `no CJK font found (looked for ${fontFiles.join(', ')}); install fonts-noto-cjk`, { data: { fontFiles } });
  }
  const family = present[0]?.includes('Serif') ? 'Noto Serif CJK SC' : FONT_FAMILY;
  return {
    async render({ index, layout, bbox, maxEdge, highlight }) {
      const view = buildSvg(index, layout, bbox, maxEdge, highlight, family);
      const resvg = new Resvg(view.svg, { font: { fontFiles: present.slice(0, 1), loadSystemFonts: false, defaultFontFamily: family }, background: '#ffffff' });
      const png = resvg.render().asPng();
      return { png, width: view.width, height: view.height, pixelsPerUnit: view.pixelsPerUnit };
    },
  };
}
