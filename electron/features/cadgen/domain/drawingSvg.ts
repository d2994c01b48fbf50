/** A hidden-line view as SVG: visible edges solid, hidden edges dashed and lighter. */
export function projectionSvg(view: { view: string; visible: string[]; hidden: string[]; view_box: string }): string {
  const [x, y, w, h] = view.view_box.split(/\s+/).map(Number) as [number, number, number, number];
  const stroke = Math.max(w, h) / 400;
  const paths = (list: string[], style: string): string => list.map((d) => `<path d="${d}" ${style}/>`).join('');
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="${x} ${y} ${w} ${h}" width="${w}mm" height="${h}mm">`,
    `<rect x="${x}" y="${y}" width="${w}" height="${h}" fill="white"/>`,
    `<g fill="none" stroke-linecap="round">`,
    paths(view.hidden, `stroke="#9aa0a6" stroke-width="${stroke}" stroke-dasharray="${stroke * 4} ${stroke * 3}"`),
    paths(view.visible, `stroke="black" stroke-width="${stroke * 1.6}"`),
    `</g><title>${view.view}</title></svg>`,
  ].join('');
}
