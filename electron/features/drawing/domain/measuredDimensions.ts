import type { DxfDocument, DxfEntity, Vec2 } from './model';
import { plainText } from './textEscapes';
import { TagView } from './tagView';

/**
 * The value a DIMENSION measures, computed from its definition points (group 42 is optional and
 * ezdxf and many other writers omit it), and how the drawing's dimension style would display it.
 */
export interface MeasuredDimension {
  /** 'linear' (rotated/horizontal/vertical), 'aligned', 'angular' (2-line), 'angular3p', 'diameter', 'radius', 'ordinate'. */
  kind: DimensionKind;
  /** Geometry value in drawing units, or degrees for angular kinds; null when the points are degenerate. */
  measured: number | null;
  /** DIMLFAC (linear kinds; 1 for angular). */
  linearFactor: number;
  /** Decimal places the style displays (DIMDEC, or DIMADEC for angles). */
  decimals: number;
  /** DIMRND (0 = none); not applied to angles. */
  roundTo: number;
  /** DIMZIN bit 8: trailing zeros are suppressed, so "50" may stand for "50.00". */
  suppressTrailingZeros: boolean;
  /** `measured` × DIMLFAC rounded as the style displays it; null when `measured` is. */
  displayValue: number | null;
  /** The text the dimension's block shows (what prints), null when the block has none. */
  blockText: string | null;
}

export type DimensionKind = 'linear' | 'aligned' | 'angular' | 'diameter' | 'radius' | 'angular3p' | 'ordinate';
const KINDS: DimensionKind[] = ['linear', 'aligned', 'angular', 'diameter', 'radius', 'angular3p', 'ordinate'];

/** The dimension variables this module uses: group code in DIMSTYLE/XDATA → header name and default. */
const VARS = {
  lfac: { code: 144, header: '$DIMLFAC', fallback: 1 },
  rnd: { code: 45, header: '$DIMRND', fallback: 0 },
  dec: { code: 271, header: '$DIMDEC', fallback: 4 },
  adec: { code: 179, header: '$DIMADEC', fallback: -1 },
  zin: { code: 78, header: '$DIMZIN', fallback: 0 },
} as const;
type VarName = keyof typeof VARS;

const DEG = 180 / Math.PI;
const sub = (a: Vec2, b: Vec2): Vec2 => ({ x: a.x - b.x, y: a.y - b.y });
const len = (v: Vec2): number => Math.hypot(v.x, v.y);
const angleBetween = (a: Vec2, b: Vec2): number => Math.acos(Math.max(-1, Math.min(1, (a.x * b.x + a.y * b.y) / (len(a) * len(b)))));
const EPS = 1e-12;

/** Dimension-style values of the named DIMSTYLE table entry (codes present in the entry only). */
function styleValues(doc: DxfDocument, styleName: string): Map<number, number> {
  const values = new Map<number, number>();
  const table = doc.tables.find((t) => t.name.toUpperCase() === 'DIMSTYLE');
  if (!table) return values;
  const { codes, values: raw } = doc.tags;
  const wanted = new Set<number>(Object.values(VARS).map((v) => v.code));
  for (let i = table.start; i < table.end; i++) {
    if (codes[i] !== 0 || (raw[i] as string).trim() !== 'DIMSTYLE') continue;
    let end = i + 1;
    while (end < table.end && codes[end] !== 0) end++;
    const view = new TagView(doc.tags, i, end);
    if (view.str(2).trim().toUpperCase() === styleName.toUpperCase()) {
      for (let j = i + 1; j < end; j++) {
        const value = Number.parseFloat(raw[j] as string);
        if (wanted.has(codes[j]!) && Number.isFinite(value)) values.set(codes[j]!, value);
      }
      return values;
    }
    i = end - 1;
  }
  return values;
}

/** Per-entity overrides written by AutoCAD as XDATA: 1001 ACAD, 1000 DSTYLE, 1002 {, (1070 code, value)*, 1002 }. */
function xdataOverrides(doc: DxfDocument, entity: DxfEntity): Map<number, number> {
  const out = new Map<number, number>();
  const { codes, values } = doc.tags;
  let i = entity.tagStart;
  while (i < entity.tagEnd && !(codes[i] === 1001 && (values[i] as string).trim() === 'ACAD')) i++;
  for (; i < entity.tagEnd; i++) if (codes[i] === 1000 && (values[i] as string).trim() === 'DSTYLE') break;
  for (i += 2; i + 1 < entity.tagEnd && codes[i] === 1070; i += 2) {
    const value = Number.parseFloat(values[i + 1] as string);
    if (Number.isFinite(value)) out.set(Number.parseInt(values[i] as string, 10), value);
  }
  return out;
}

function headerValue(doc: DxfDocument, name: string): number | undefined {
  const value = Number.parseFloat(doc.header.get(name)?.values[0]?.value ?? '');
  return Number.isFinite(value) ? value : undefined;
}

/** Angle (radians) of the sector at `c` between rays `r1`, `r2` that contains `probe`. */
function sectorAngle(c: Vec2, r1: Vec2, r2: Vec2, probe: Vec2): number {
  const theta = angleBetween(r1, r2);
  const p = sub(probe, c);
  if (len(p) < EPS) return theta;
  // p lies inside the r1–r2 sector when its angles to r1 and r2 add up to theta.
  const inside = (a: Vec2, b: Vec2): boolean => Math.abs(angleBetween(p, a) + angleBetween(p, b) - angleBetween(a, b)) < 1e-6;
  const neg = (v: Vec2): Vec2 => ({ x: -v.x, y: -v.y });
  return inside(r1, r2) || inside(neg(r1), neg(r2)) ? theta : Math.PI - theta;
}

function intersection(a1: Vec2, a2: Vec2, b1: Vec2, b2: Vec2): Vec2 | undefined {
  const d1 = sub(a2, a1);
  const d2 = sub(b2, b1);
  const cross = d1.x * d2.y - d1.y * d2.x;
  if (Math.abs(cross) < EPS) return undefined;
  const t = ((b1.x - a1.x) * d2.y - (b1.y - a1.y) * d2.x) / cross;
  return { x: a1.x + t * d1.x, y: a1.y + t * d1.y };
}

const farther = (c: Vec2, a: Vec2, b: Vec2): Vec2 => (len(sub(a, c)) >= len(sub(b, c)) ? sub(a, c) : sub(b, c));

/** The geometry value of a dimension of `kind` from its tags (drawing units, degrees for angles). */
function geometryValue(kind: DimensionKind, v: TagView, flags: number): number | null {
  const p10 = v.point(10);
  const p13 = v.point(13);
  const p14 = v.point(14);
  const p15 = v.point(15);
  switch (kind) {
    case 'linear': {
      const a = (v.num(50) * Math.PI) / 180;
      return Math.abs((p14.x - p13.x) * Math.cos(a) + (p14.y - p13.y) * Math.sin(a));
    }
    case 'aligned':
      return len(sub(p14, p13));
    case 'diameter':
    case 'radius':
      return len(sub(p15, p10));
    case 'ordinate':
      // Bit 64: X-type (measures along X from the origin in group 10).
      return Math.abs((flags & 64) !== 0 ? p13.x - p10.x : p13.y - p10.y);
    case 'angular': {
      // Lines 13→14 and 10→15; the arc through 16 tells which of the four sectors is dimensioned.
      const c = intersection(p13, p14, p10, p15);
      if (!c) return null;
      const r1 = farther(c, p13, p14);
      const r2 = farther(c, p10, p15);
      if (len(r1) < EPS || len(r2) < EPS) return null;
      return sectorAngle(c, r1, r2, v.point(16)) * DEG;
    }
    case 'angular3p': {
      // Vertex 15, legs to 13 and 14; the arc through 10 may make it the reflex angle.
      const r1 = sub(p13, p15);
      const r2 = sub(p14, p15);
      if (len(r1) < EPS || len(r2) < EPS) return null;
      const theta = angleBetween(r1, r2);
      const arc = sub(p10, p15);
      const inside = len(arc) < EPS || Math.abs(angleBetween(arc, r1) + angleBetween(arc, r2) - theta) < 1e-6;
      return (inside ? theta : 2 * Math.PI - theta) * DEG;
    }
  }
}

/** Texts of the dimension's anonymous block (*D…) joined in drawing order: what the sheet shows. */
function blockText(doc: DxfDocument, name: string): string | null {
  if (!name) return null;
  const texts = (doc.blocks.get(name.toUpperCase())?.entities ?? []).flatMap((e) => (e.geometry.kind === 'text' && e.geometry.text.trim() ? [e.geometry.text.trim()] : []));
  return texts.length > 0 ? texts.join(' ') : null;
}

/** Rounds as the style displays: to a multiple of DIMRND when set, then to `decimals` places. */
export function displayRound(value: number, decimals: number, roundTo: number): number {
  const stepped = roundTo > 0 ? Math.round(value / roundTo) * roundTo : value;
  const scale = 10 ** Math.max(0, Math.min(8, decimals));
  return Math.round(stepped * scale) / scale;
}

/**
 * Measures a DIMENSION entity: kind from group 70, value from the definition points, display
 * values from the entity's XDATA overrides, then its DIMSTYLE (group 3, default STANDARD), then
 * the header. Undefined for entities that are not dimensions.
 */
export function measureDimension(doc: DxfDocument, entity: DxfEntity): MeasuredDimension | undefined {
  if (entity.geometry.kind !== 'dimension') return undefined;
  const v = new TagView(doc.tags, entity.tagStart, entity.tagEnd);
  const flags = v.num(70);
  const kind = KINDS[flags & 7];
  if (!kind) return undefined;
  const style = styleValues(doc, plainText(v.str(3, 'STANDARD')).trim() || 'STANDARD');
  const overrides = xdataOverrides(doc, entity);
  const get = (name: VarName): number => overrides.get(VARS[name].code) ?? style.get(VARS[name].code) ?? headerValue(doc, VARS[name].header) ?? VARS[name].fallback;
  const angular = kind === 'angular' || kind === 'angular3p';
  const dec = get('dec');
  const adec = get('adec');
  const linearFactor = angular ? 1 : Math.abs(get('lfac')) || 1;
  const decimals = angular ? (adec >= 0 ? adec : dec) : dec;
  const roundTo = angular ? 0 : Math.abs(get('rnd'));
  const raw = geometryValue(kind, v, flags);
  const measured = raw !== null && Number.isFinite(raw) ? raw : null;
  return {
    kind,
    measured,
    linearFactor,
    decimals,
    roundTo,
    suppressTrailingZeros: (get('zin') & 8) !== 0,
    displayValue: measured === null ? null : displayRound(measured * linearFactor, decimals, roundTo),
    blockText: blockText(doc, entity.geometry.blockName),
  };
}
