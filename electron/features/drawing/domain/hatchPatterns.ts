import type { GradientColor, HatchGradient, HatchPattern, PatternLine } from './model';
import type { TagView } from './tagView';
import { numberAt } from './tagView';

export type { GradientColor, HatchGradient, HatchPattern, PatternLine };

/** Most pattern line families and dash items read from one entity (a damaged count cannot run away). */
const MAX_FAMILIES = 64;
const MAX_DASHES = 32;

/**
 * Reads the pattern definition of a HATCH: name (2), angle (52), scale (41), double (77) and the
 * 78 counted pattern lines (53 angle, 43/44 base, 45/46 offset, 79 dash count, 49 dashes). The
 * lines follow the boundary data, so reading starts at group 78; a line cut short is dropped.
 */
export function readHatchPattern(view: TagView): HatchPattern {
  const tags = view.tags;
  const pattern: HatchPattern = { name: view.str(2).trim().toUpperCase(), scale: 1, angle: 0, double: false, lines: [] };
  const styleAt = view.indexOf(75);
  const from = styleAt < 0 ? view.start : styleAt;
  const scaleAt = view.indexOf(41, from);
  const angleAt = view.indexOf(52, from);
  if (scaleAt >= 0) pattern.scale = numberAt(tags, scaleAt) || 1;
  if (angleAt >= 0) pattern.angle = numberAt(tags, angleAt);
  const doubleAt = view.indexOf(77, from);
  pattern.double = doubleAt >= 0 && numberAt(tags, doubleAt) === 1;
  let i = view.indexOf(78, from);
  if (i < 0) return pattern;
  const count = Math.min(MAX_FAMILIES, Math.max(0, numberAt(tags, i++)));
  const take = (code: number): number | undefined => (i < view.end && tags.codes[i] === code ? numberAt(tags, i++) : undefined);
  for (let n = 0; n < count; n++) {
    const angle = take(53);
    const bx = take(43);
    const by = take(44);
    const ox = take(45);
    const oy = take(46);
    const dashCount = take(79);
    if (angle === undefined || bx === undefined || by === undefined || ox === undefined || oy === undefined || dashCount === undefined) break;
    const dashes: number[] = [];
    for (let d = 0; d < dashCount; d++) {
      const dash = take(49);
      if (dash === undefined) break;
      if (dashes.length < MAX_DASHES) dashes.push(dash);
    }
    pattern.lines.push({ angle, base: { x: bx, y: by }, offset: { x: ox, y: oy }, dashes });
  }
  return pattern;
}

/** Reads the gradient of a HATCH (450 = 1), or undefined when it has none. */
export function readHatchGradient(view: TagView): HatchGradient | undefined {
  const at = view.indexOf(450);
  if (at < 0 || numberAt(view.tags, at) === 0) return undefined;
  const tags = view.tags;
  const colors: GradientColor[] = [];
  for (let i = at; i < view.end && colors.length < 2; i++) {
    if (tags.codes[i] !== 463) continue;
    const color: GradientColor = { aci: 7 };
    for (let j = i + 1; j < view.end && tags.codes[j] !== 463 && tags.codes[j] !== 470; j++) {
      if (tags.codes[j] === 63) color.aci = numberAt(tags, j);
      else if (tags.codes[j] === 421) color.rgb = numberAt(tags, j) & 0xffffff;
    }
    colors.push(color);
  }
  const num = (code: number, fallback: number): number => {
    const i = view.indexOf(code, at);
    return i < 0 ? fallback : numberAt(tags, i);
  };
  const nameAt = view.indexOf(470, at);
  return {
    name: nameAt < 0 ? 'LINEAR' : (tags.values[nameAt] as string).trim().toUpperCase() || 'LINEAR',
    angle: num(460, 0),
    shift: num(461, 0),
    oneColor: num(452, 0) === 1,
    tint: num(462, 1),
    colors,
  };
}
