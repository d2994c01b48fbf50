import { textPath, textWidth } from './drawingLettering';
import { VIEW_CAMERAS } from './drawingViews';
import type { ProjectionMethod, ProjectionViewName, ViewCamera } from './drawingViews';
import type { TopologySnapshot } from './topology';
import { dot, parallel } from './vec3';
import type { Vec3 } from './vec3';
import { findBores } from './verifiers/bores';
import type { Bore } from './verifiers/bores';

/** One hidden-line view as the kernel projected it (SVG path data, y down). */
export interface ProjectedView {
  view: ProjectionViewName;
  visible: string[];
  hidden: string[];
}

export interface DrawingInput {
  view: ProjectedView;
  method: ProjectionMethod;
  /** The measured revision: overall sizes and bores are taken from here, never from the document. */
  snapshot: TopologySnapshot;
  /** Language of the labels (view names, THRU/通孔); English when omitted. */
  lang?: DrawingLanguage;
}

export type DrawingLanguage = 'en' | 'zh-CN';

/** The drawing's words per language (GB/T 4458.1 view names in Chinese). */
const LABELS: Record<DrawingLanguage, { titles: Record<ProjectionViewName, string>; from: (side: string) => string; caption: (title: string, side: string) => string; through: string; depth: string; width: string; height: string; projection: (method: ProjectionMethod) => string }> = {
  en: {
    caption: (title, side) => `${title} from ${side}`,
    width: 'width',
    height: 'height',
    titles: { front: 'FRONT VIEW', top: 'TOP VIEW', left: 'LEFT VIEW', right: 'RIGHT VIEW', iso: 'ISOMETRIC VIEW' },
    from: (side) => `FROM ${side}`,
    through: 'THRU',
    depth: 'DEPTH',
    projection: (method) => `${method === 'first_angle' ? 'FIRST' : 'THIRD'} ANGLE PROJECTION · MM`,
  },
  'zh-CN': {
    caption: (title, side) => `${title}（自 ${side} 向）`,
    width: '宽',
    height: '高',
    titles: { front: '主视图', top: '俯视图', left: '左视图', right: '右视图', iso: '轴测图' },
    from: (side) => `自 ${side} 向`,
    through: '通孔',
    depth: '深',
    projection: (method) => `${method === 'first_angle' ? '第一角' : '第三角'}投影 · 单位 mm`,
  },
};

/** The language a task's drawings are labelled in: Chinese when its request is written with Han characters. */
export function drawingLanguageOf(request: string): DrawingLanguage {
  return /[\u4e00-\u9fff]/.test(request) ? 'zh-CN' : 'en';
}

/** Han characters: the single-stroke lettering has no glyphs for them, so they are set as SVG text. */
const CJK = /[\u3000-\u9fff\uff00-\uffef]/;
/** CJK-capable faces: the Noto/Source Han CJK fonts the PNG rasterizer loads, then the desktop fonts of Chinese systems. */
const CJK_FONT_FAMILY = "'Noto Sans CJK SC', 'Source Han Sans SC', 'Microsoft YaHei', 'PingFang SC', SimHei, sans-serif";

/** Dimension numbers: at most two decimals, no trailing zeros (40, 12.5, 33.33). */
export const formatMm = (value: number): string => String(Math.round(value * 100) / 100);

/** Same straight segment regardless of direction ("M a L b" = "M b L a"); other paths keep their text. */
function segmentKey(d: string): string {
  const m = /^M\s*(\S+)\s+(\S+)\s*L\s*(\S+)\s+(\S+)$/.exec(d.trim());
  if (!m) return d.trim();
  const [p, q] = [`${m[1]} ${m[2]}`, `${m[3]} ${m[4]}`].sort();
  return `${p}|${q}`;
}

/**
 * Hidden edges that coincide in projection (two holes one behind the other) would overlay their
 * dash patterns into what looks like a solid line; hidden edges under a visible one add nothing.
 */
export function distinctHidden(hidden: string[], visible: string[]): string[] {
  const seen = new Set(visible.map(segmentKey));
  return hidden.filter((d) => {
    const key = segmentKey(d);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Drawing coordinates of a model point in a view (replicad's SVG convention: y down). */
const project = (camera: ViewCamera, p: Vec3): [number, number] => [dot(p, camera.x_axis), -dot(p, camera.y_axis)];

class Bounds {
  minX = Infinity;
  minY = Infinity;
  maxX = -Infinity;
  maxY = -Infinity;
  add(x: number, y: number): void {
    this.minX = Math.min(this.minX, x);
    this.maxX = Math.max(this.maxX, x);
    this.minY = Math.min(this.minY, y);
    this.maxY = Math.max(this.maxY, y);
  }
}

const n = (v: number): string => String(Math.round(v * 1000) / 1000);
const escapeXml = (v: string): string => v.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Arrowhead triangle at (x, y) pointing along (dx, dy) (unit), `size` long. */
function arrow(x: number, y: number, dx: number, dy: number, size: number): string {
  const bx = x - dx * size;
  const by = y - dy * size;
  const w = size * 0.3;
  return `M${n(x)} ${n(y)}L${n(bx - dy * w)} ${n(by + dx * w)}L${n(bx + dy * w)} ${n(by - dx * w)}Z`;
}

/** Bores seen end-on in this view, grouped by diameter and through/depth, with their drawing centres. */
function boreGroups(camera: ViewCamera, bores: Bore[], words: (typeof LABELS)[DrawingLanguage]): { label: string; centres: [number, number][]; radius: number }[] {
  const groups = new Map<string, { label: string; centres: [number, number][]; radius: number }>();
  for (const bore of bores) {
    if (!parallel(bore.axis.direction, camera.toward_viewer, 1e-6)) continue;
    const size = `Ø${formatMm(bore.diameter_mm)} ${bore.through ? words.through : `${words.depth} ${formatMm(bore.length_mm)}`}`;
    const group = groups.get(size) ?? { label: size, centres: [], radius: bore.diameter_mm / 2 };
    group.centres.push(project(camera, bore.axis.origin));
    groups.set(size, group);
  }
  return [...groups.values()].map((g) => ({ ...g, label: g.centres.length > 1 ? `${g.centres.length}×${g.label}` : g.label }));
}

/**
 * A labelled, dimensioned hidden-line view as SVG: visible edges solid, hidden edges dashed, overall
 * bbox extents as dimension lines (orthographic views), bores seen end-on as Ø callouts, and a
 * title naming the view, the side it looks from and the projection method. All lettering is
 * stroked paths (see drawingLettering) so rasterizing needs no fonts.
 */
export function projectionSvg(input: DrawingInput): string {
  const camera = VIEW_CAMERAS[input.view.view];
  const box = input.snapshot.measurements.bbox;
  const corners: Vec3[] = [];
  for (const x of [box.min[0], box.max[0]]) for (const y of [box.min[1], box.max[1]]) for (const z of [box.min[2], box.max[2]]) corners.push([x, y, z]);
  const part = new Bounds();
  for (const c of corners) part.add(...project(camera, c));
  const size = Math.max(part.maxX - part.minX, part.maxY - part.minY, 1e-3);
  const text = size * 0.045;
  const gap = size * 0.12;
  const thin = size / 700;
  const all = new Bounds();
  all.add(part.minX - gap * 0.4, part.minY - gap * 0.4);
  all.add(part.maxX + gap * 0.4, part.maxY + gap * 0.4);
  const annotation: string[] = [];
  /** Plain-text list of what was dimensioned, kept in <desc> for readers and tests. */
  const described: string[] = [];
  const filled: string[] = [];
  const lettering: string[] = [];
  const rotated: string[] = [];
  const typeset: string[] = [];
  const words = LABELS[input.lang ?? 'en'];
  const write = (value: string, x: number, y: number, height: number, anchor: 'start' | 'middle' | 'end' = 'middle'): void => {
    // Lettering with Han characters is set in a CJK font (each Han character about one em wide).
    const cjk = CJK.test(value);
    if (cjk) typeset.push(`<text x="${n(x)}" y="${n(y)}" font-size="${n(height * 1.35)}" font-family="${CJK_FONT_FAMILY}" text-anchor="${anchor}" fill="#1f4fbf" stroke="none">${escapeXml(value)}</text>`);
    else lettering.push(textPath(value, x, y, height, anchor));
    const w = cjk ? [...value].reduce((sum, c) => sum + (CJK.test(c) ? 1.35 : 0.75) * height, 0) : textWidth(value, height);
    const left = anchor === 'start' ? x : anchor === 'middle' ? x - w / 2 : x - w;
    all.add(left, y - height);
    all.add(left + w, y + height * 0.3);
  };

  if (input.view.view !== 'iso') {
    // Overall width below the view and height to its right, from the exact bbox.
    const y = part.maxY + gap;
    annotation.push(`M${n(part.minX)} ${n(part.maxY + gap * 0.15)}L${n(part.minX)} ${n(y + gap * 0.15)}M${n(part.maxX)} ${n(part.maxY + gap * 0.15)}L${n(part.maxX)} ${n(y + gap * 0.15)}`);
    annotation.push(`M${n(part.minX)} ${n(y)}L${n(part.maxX)} ${n(y)}`);
    filled.push(arrow(part.minX, y, -1, 0, text * 0.9), arrow(part.maxX, y, 1, 0, text * 0.9));
    write(formatMm(part.maxX - part.minX), (part.minX + part.maxX) / 2, y - text * 0.4, text);
    described.push(`${words.width} ${formatMm(part.maxX - part.minX)}`, `${words.height} ${formatMm(part.maxY - part.minY)}`);
    const x = part.maxX + gap;
    annotation.push(`M${n(part.maxX + gap * 0.15)} ${n(part.minY)}L${n(x + gap * 0.15)} ${n(part.minY)}M${n(part.maxX + gap * 0.15)} ${n(part.maxY)}L${n(x + gap * 0.15)} ${n(part.maxY)}`);
    annotation.push(`M${n(x)} ${n(part.minY)}L${n(x)} ${n(part.maxY)}`);
    filled.push(arrow(x, part.minY, 0, -1, text * 0.9), arrow(x, part.maxY, 0, 1, text * 0.9));
    const label = formatMm(part.maxY - part.minY);
    const cy = (part.minY + part.maxY) / 2;
    // Vertical dimension text reads from the right (rotated), beside its line.
    const tx = x + text * 1.4;
    rotated.push(`<path d="${textPath(label, tx, cy, text, 'middle')}" transform="rotate(-90 ${n(tx)} ${n(cy)})"/>`);
    all.add(x + text * 2, cy - textWidth(label, text) / 2);
    all.add(x + text * 2, cy + textWidth(label, text) / 2);

    // Bore callouts: a leader from the rim at 45° up-right of the right-most bore of each size.
    let slot = 0;
    for (const group of boreGroups(camera, findBores(input.snapshot), words)) {
      const [cx, cyBore] = group.centres.reduce((best, c) => (c[0] - c[1] > best[0] - best[1] ? c : best));
      const rim: [number, number] = [cx + group.radius * Math.SQRT1_2, cyBore - group.radius * Math.SQRT1_2];
      const elbowY = Math.min(rim[1] - gap * 0.5, part.minY - gap * 0.3 - slot * text * 1.8);
      const elbow: [number, number] = [rim[0] + (rim[1] - elbowY), elbowY];
      const end = elbow[0] + textWidth(group.label, text) + text * 0.5;
      annotation.push(`M${n(rim[0])} ${n(rim[1])}L${n(elbow[0])} ${n(elbow[1])}L${n(end)} ${n(elbow[1])}`);
      filled.push(arrow(rim[0], rim[1], -Math.SQRT1_2, Math.SQRT1_2, text * 0.9));
      write(group.label, elbow[0] + text * 0.25, elbow[1] - text * 0.35, text, 'start');
      described.push(group.label);
      slot += 1;
    }
  } else {
    const e = box.max.map((v, k) => v - (box.min[k] as number));
    const overall = `${formatMm(e[0] as number)} × ${formatMm(e[1] as number)} × ${formatMm(e[2] as number)} (X × Y × Z)`;
    write(overall, (part.minX + part.maxX) / 2, part.maxY + gap, text);
    described.push(overall);
  }

  const titleY = all.maxY + text * 2.2;
  const centreX = (part.minX + part.maxX) / 2;
  write(`${words.titles[input.view.view]} · ${words.from(camera.from)}`, centreX, titleY, text * 1.25);
  write(words.projection(input.method), centreX, titleY + text * 2, text * 0.8);

  const pad = text;
  const vb = [all.minX - pad, all.minY - pad, all.maxX - all.minX + 2 * pad, all.maxY - all.minY + 2 * pad].map(n);
  const [x, y, w, h] = vb as [string, string, string, string];
  const paths = (list: string[], style: string): string => list.map((d) => `<path d="${d}" ${style}/>`).join('');
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="${vb.join(' ')}" width="${w}mm" height="${h}mm">`,
    `<rect x="${x}" y="${y}" width="${w}" height="${h}" fill="white"/>`,
    `<g fill="none" stroke-linecap="round" stroke-linejoin="round">`,
    paths(distinctHidden(input.view.hidden, input.view.visible), `stroke="#5f6670" stroke-width="${n(size / 450)}" stroke-dasharray="${n(size / 70)} ${n(size / 110)}"`),
    paths(input.view.visible, `stroke="black" stroke-width="${n(size / 220)}"`),
    `<path d="${annotation.join('')}" stroke="#1f4fbf" stroke-width="${n(thin * 1.5)}"/>`,
    `<g stroke="#1f4fbf" stroke-width="${n(text / 9)}"><path d="${lettering.join('')}"/>${rotated.join('')}</g>`,
    `</g><path d="${filled.join('')}" fill="#1f4fbf"/>`,
    typeset.join(''),
    `<title>${escapeXml(words.caption(words.titles[input.view.view], camera.from))}</title><desc>${escapeXml(described.join('; '))}</desc></svg>`,
  ].join('');
}
