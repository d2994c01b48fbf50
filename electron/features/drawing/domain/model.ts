import type { DxfProblem, TagStream } from './tags';
import type { MtextRun } from './textEscapes';

export interface Vec2 {
  x: number;
  y: number;
}

/** Axis-aligned box in drawing units. */
export interface Box {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
}

export interface PolyVertex extends Vec2 {
  /** tan(θ/4) of the arc to the next vertex; 0 for a straight segment. */
  bulge: number;
}

/**
 * One pattern line family of a HATCH, as the entity stores it (already scaled and rotated):
 * line k of the family runs through `base + k·offset` at `angle` degrees, dashed by `dashes`
 * (> 0 dash, < 0 gap, 0 dot; empty = continuous).
 */
export interface PatternLine {
  angle: number;
  base: Vec2;
  offset: Vec2;
  dashes: number[];
}

/** The pattern of a HATCH: its name, scale and angle (for rebuilding from acad.pat) and its own lines. */
export interface HatchPattern {
  name: string;
  scale: number;
  angle: number;
  /** Group 77: cross-hatched (a second family at +90°), only used when rebuilding from the table. */
  double: boolean;
  lines: PatternLine[];
}

/** A colour stored in a gradient: ACI (group 63) and 24-bit RGB (group 421) when present. */
export interface GradientColor {
  aci: number;
  rgb?: number;
}

/** A gradient fill (groups 450–470): type name (LINEAR, SPHERICAL…), angle in radians, centred or shifted. */
export interface HatchGradient {
  name: string;
  angle: number;
  /** Group 461: 0 = centred, 1 = shifted to one end. */
  shift: number;
  /** Group 452: 1 = one colour blended with a tint of white/black (`tint`, group 462). */
  oneColor: boolean;
  tint: number;
  colors: GradientColor[];
}

/** One line of an MLINESTYLE: its offset (49, in style units), colour (62) and linetype (6). */
export interface MlineElement {
  offset: number;
  color: number;
  lineType: string;
}

/** An MLINESTYLE object: flags (70: 16/256 square start/end caps), element lines. */
export interface MlineStyle {
  handle: string;
  name: string;
  flags: number;
  elements: MlineElement[];
}

/** One MLINE vertex: position (11), miter direction (13) and, per style element, its parameters (74 × 41). */
export interface MlineVertex {
  at: Vec2;
  miter: Vec2;
  /** params[e][0] is element e's distance from the vertex along the miter (scale included). */
  params: number[][];
}

export interface TextGeometry {
  kind: 'text';
  /** Plain text (escapes decoded, MTEXT formatting stripped). */
  text: string;
  /** The value as stored in the file. */
  raw: string;
  at: Vec2;
  height: number;
  /** Degrees, counter-clockwise. */
  rotation: number;
  /** 0 left, 1 center, 2 right (TEXT 72; MTEXT attachment column). */
  hAlign: number;
  /** 0 baseline, 1 bottom, 2 middle, 3 top. */
  vAlign: number;
  /** MTEXT reference width (0 = no wrapping). */
  width: number;
  mtext: boolean;
  /** ATTRIB/ATTDEF tag. */
  tag?: string;
  /** Text style name (group 7) for TEXT/ATTRIB/MTEXT; its STYLE entry names the fonts. */
  style?: string;
  /** Seen from behind (backward/upside-down flags, negative extrusion): see TextFrame. */
  mirrored?: boolean;
  /** TEXT width factor (41) when not 1. */
  widthFactor?: number;
  /** TEXT oblique angle (51), degrees, when not 0. */
  oblique?: number;
  /** MTEXT runs per line when the text has stacked fractions or tolerances (drawn stacked). */
  runs?: MtextRun[][];
}

export interface InsertGeometry {
  kind: 'insert';
  name: string;
  at: Vec2;
  scaleX: number;
  scaleY: number;
  rotation: number;
  columns: number;
  rows: number;
  columnSpacing: number;
  rowSpacing: number;
  attribs: DxfEntity[];
}

/** A paper-space VIEWPORT: a window on model space (paper = center + scale·(R(twist)·(model − target) − viewCenter)). */
export interface ViewportGeometry {
  kind: 'viewport';
  /** Centre, width and height on the sheet (paper units). */
  center: Vec2;
  width: number;
  height: number;
  /** View centre in display coordinates (model units, relative to `target`, after the twist). */
  viewCenter: Vec2;
  /** Model-space height shown (paper height / view height = scale). */
  viewHeight: number;
  /** 1 = the layout's own overall viewport (not a window on model space). */
  id: number;
  /** 0 = off, > 0 = on (stacking order), -1 = on but not active. */
  status: number;
  twistDeg: number;
  target: Vec2;
  /** True when the view looks straight down (only top views are drawn). */
  topView: boolean;
  /** Handle of the entity clipping a non-rectangular viewport, '' when rectangular. */
  clipHandle: string;
  /** Handles of the LAYER entries frozen in this viewport only. */
  frozenLayerHandles: string[];
}

export type DxfGeometry =
  | { kind: 'line'; a: Vec2; b: Vec2; z1: number; z2: number }
  | { kind: 'point'; at: Vec2 }
  | { kind: 'vertex'; at: Vec2; bulge: number; flags: number; /** polyface face record: vertex indices 71–74 (1-based, < 0 = hidden edge) */ indices?: number[] }
  | { kind: 'circle'; center: Vec2; radius: number }
  | { kind: 'arc'; center: Vec2; radius: number; startAngle: number; endAngle: number }
  | { kind: 'ellipse'; center: Vec2; majorAxis: Vec2; ratio: number; startParam: number; endParam: number }
  /**
   * A POLYLINE polygon mesh (flag 16, M × N vertices) or polyface mesh (flag 64): its visible
   * edges, filled in from the VERTEX records; `m`/`n` (71/72) and the smoothed grid (73/74)
   * size a polygon mesh, `closedM`/`closedN` are 70 bits 1 and 32.
   */
  | { kind: 'mesh'; polyface: boolean; m: number; n: number; smoothM: number; smoothN: number; closedM: boolean; closedN: boolean; edges: [Vec2, Vec2][] }
  | { kind: 'polyline'; vertices: PolyVertex[]; closed: boolean; /** constant width in drawing units (LWPOLYLINE 43, POLYLINE 40 = 41) */ width?: number }
  | { kind: 'spline'; degree: number; controlPoints: Vec2[]; knots: number[]; weights: number[]; fitPoints: Vec2[]; closed: boolean }
  | TextGeometry
  | InsertGeometry
  | { kind: 'dimension'; blockName: string; dimType: number; measurement: number | null; textOverride: string; defPoint: Vec2; textAt: Vec2; points: Vec2[] }
  /** Boundary loops (edges flattened); a pattern hatch draws its pattern lines clipped to them, a gradient hatch blends its colours. */
  | { kind: 'hatch'; loops: Vec2[][]; solid: boolean; pattern?: HatchPattern; gradient?: HatchGradient }
  | { kind: 'leader'; vertices: Vec2[]; text: string; arrow: boolean }
  | { kind: 'solid'; corners: Vec2[] }
  /**
   * IMAGE (drawn as its frame and file name; the picture file is not read) or WIPEOUT (a white
   * mask). `u`/`v` are one pixel along the image axes; `boundary` is in pixel coordinates, origin
   * top-left (two points = a rectangle); `imageDef` is the IMAGEDEF handle, `name` its file name.
   */
  | { kind: 'image'; at: Vec2; u: Vec2; v: Vec2; size: Vec2; boundary: Vec2[]; wipeout: boolean; imageDef: string; name: string }
  /** XLINE (infinite both ways) or RAY (infinite forward) through `at` along the unit `direction`. */
  | { kind: 'xline'; at: Vec2; direction: Vec2; ray: boolean }
  | ViewportGeometry
  /** MLINE: its style (340 handle / 2 name, upper case), flags (71) and vertices with miters and element parameters. */
  | { kind: 'mline'; styleHandle: string; styleName: string; flags: number; vertices: MlineVertex[] }
  /** A custom object (ACAD_PROXY_ENTITY, or an entity type no reader knows) drawn from its proxy graphics stream. */
  | { kind: 'proxy'; graphics: Uint8Array }
  | { kind: 'other' };

export interface DxfEntity {
  type: string;
  /** Hex handle; '' when the file has none (R12 without handles, broken files). */
  handle: string;
  layer: string;
  /** ACI colour: 256 = BYLAYER, 0 = BYBLOCK. */
  color: number;
  /** 24-bit true colour (group 420) when set. */
  trueColor?: number;
  /** Linetype name (group 6); absent = BYLAYER. */
  lineType?: string;
  /** Linetype scale (group 48); absent = 1. */
  lineTypeScale?: number;
  /** Lineweight (group 370) in 1/100 mm; -1 BYLAYER, -2 BYBLOCK, -3 default; absent = BYLAYER. */
  lineweight?: number;
  paperSpace: boolean;
  /** Tag index range [tagStart, tagEnd) in the document stream, children (ATTRIB/VERTEX/SEQEND) included. */
  tagStart: number;
  tagEnd: number;
  geometry: DxfGeometry;
}

export interface DxfLayer {
  name: string;
  /** Absolute ACI colour. */
  color: number;
  trueColor?: number;
  off: boolean;
  frozen: boolean;
  locked: boolean;
  lineType: string;
  /** Lineweight (group 370) in 1/100 mm; -3 = default (also when absent), -2 = by block, -1 = by layer. */
  lineweight: number;
  /** LAYER table entry handle (viewports name their frozen layers by handle). */
  handle?: string;
}

export interface DxfTextStyle {
  name: string;
  font: string;
  bigFont: string;
  height: number;
}

export interface DxfBlock {
  name: string;
  handle: string;
  /** BLOCK_RECORD handle (group 330 of the BLOCK entity), '' for R12. */
  recordHandle: string;
  basePoint: Vec2;
  flags: number;
  entities: DxfEntity[];
}

export interface DxfLayout {
  /** "Model" for model space, otherwise the paper layout tab name. */
  name: string;
  /** *Model_Space, *Paper_Space, *Paper_Space0 ... */
  blockName: string;
  paperSpace: boolean;
  entities: DxfEntity[];
  /** Paper layouts: the unit of paper-space coordinates from the layout's plot settings (inches or mm). */
  paperUnits?: 'inches' | 'mm';
  /** Paper layouts: the sheet as plotted, in paper units (plot settings' paper size, else the layout's limits). */
  paperBox?: Box;
}

/** One header variable: its value tags and the stream index of its first value tag. */
export interface HeaderVariable {
  valueIndex: number;
  values: { code: number; value: string }[];
}

/** Where a section or table sits in the tag stream ([start, end) with end at ENDSEC/ENDTAB). */
export interface TagRange {
  name: string;
  start: number;
  end: number;
  handle?: string;
}

export interface DxfDocument {
  tags: TagStream;
  /** $ACADVER, e.g. AC1015; 'unknown' when the header is missing. */
  version: string;
  /** $DWGCODEPAGE as written (ANSI_936 ...), or 'UTF-8' for R2007+. */
  codePage: string;
  header: Map<string, HeaderVariable>;
  layers: Map<string, DxfLayer>;
  styles: Map<string, DxfTextStyle>;
  /** BLOCK_RECORD handle → block name. */
  blockRecords: Map<string, string>;
  /** DIMSTYLE names in table order (a written LEADER must name one). */
  dimStyles: string[];
  /** LTYPE names in table order. */
  lineTypes: string[];
  /** LTYPE dash patterns by upper-case name (drawing units; > 0 dash, < 0 gap, 0 dot); continuous types absent. */
  lineTypePatterns?: Map<string, number[]>;
  blocks: Map<string, DxfBlock>;
  layouts: DxfLayout[];
  entitiesByHandle: Map<string, DxfEntity>;
  sections: TagRange[];
  tables: TagRange[];
  problems: DxfProblem[];
  /** MLINESTYLE objects (OBJECTS section), for the colours and caps of MLINE elements. */
  mlineStyles?: MlineStyle[];
}
