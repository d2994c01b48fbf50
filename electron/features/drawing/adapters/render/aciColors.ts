/** AutoCAD Color Index → RGB: 1–9 fixed, 10–249 = 24 hues × 5 shades × (full, half-saturated), 250–255 greys. */
const FIXED: Record<number, number> = { 1: 0xff0000, 2: 0xffff00, 3: 0x00ff00, 4: 0x00ffff, 5: 0x0000ff, 6: 0xff00ff, 7: 0x000000, 8: 0x808080, 9: 0xc0c0c0 };
const GREYS = [0x33, 0x50, 0x69, 0x82, 0xbe, 0xff];
const SHADES = [1, 0.65, 0.5, 0.3, 0.15];

function hueChannels(hueDeg: number): [number, number, number] {
  const h = (hueDeg % 360) / 60;
  const x = 1 - Math.abs((h % 2) - 1);
  if (h < 1) return [1, x, 0];
  if (h < 2) return [x, 1, 0];
  if (h < 3) return [0, 1, x];
  if (h < 4) return [0, x, 1];
  if (h < 5) return [x, 0, 1];
  return [1, 0, x];
}

export function aciToRgb(aci: number): number {
  if (FIXED[aci] !== undefined) return FIXED[aci];
  if (aci >= 250 && aci <= 255) {
    const g = GREYS[aci - 250] ?? 0;
    return (g << 16) | (g << 8) | g;
  }
  if (aci < 10 || aci > 249) return 0;
  const hue = Math.floor((aci - 10) / 10) * 15;
  const variant = (aci - 10) % 10;
  const shade = SHADES[Math.floor(variant / 2)] ?? 1;
  const tint = variant % 2 === 1;
  const [r, g, b] = hueChannels(hue).map((c) => Math.round(255 * shade * (tint ? 0.5 + 0.5 * c : c)));
  return ((r ?? 0) << 16) | ((g ?? 0) << 8) | (b ?? 0);
}

/**
 * CSS colour for a white sheet: black stays black, and colours too light to read on white
 * (yellow, cyan, light greys) are darkened, as plot styles for review prints do.
 */
export function cssColorOnWhite(rgb: number): string {
  let r = (rgb >> 16) & 0xff;
  let g = (rgb >> 8) & 0xff;
  let b = rgb & 0xff;
  const luminance = (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
  if (luminance > 0.6) {
    const k = 0.6 / luminance;
    r = Math.round(r * k);
    g = Math.round(g * k);
    b = Math.round(b * k);
  }
  return `#${((r << 16) | (g << 8) | b).toString(16).padStart(6, '0')}`;
}
