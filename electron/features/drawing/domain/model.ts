import type { DxfProblem, TagStream } from './tags';

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

export type DxfGeometry =
  | { kind: 'line'; a: Vec2; b: Vec2; z1: number; z2: number }
  | { kind: 'point'; at: Vec2 }
  | { kind: 'vertex'; at: Vec2; bulge: number; flags: number }
  | { kind: 'circle'; center: Vec2; radius: number }
  | { kind: 'arc'; center: Vec2; radius: number; startAngle: number; endAngle: number }
  | { kind: 'ellipse'; center: Vec2; majorAxis: Vec2; ratio: number; startParam: number; endParam: number }
  | { kind: 'polyline'; vertices: PolyVertex[]; closed: boolean }
  | { kind: 'spline'; degree: number; controlPoints: Vec2[]; knots: number[]; weights: number[]; fitPoints: Vec2[]; closed: boolean }
  | TextGeometry
  | InsertGeometry
  | { kind: 'dimension'; blockName: string; dimType: number; measurement: number | null; textOverride: string; defPoint: Vec2; textAt: Vec2; points: Vec2[] }
  | { kind: 'hatch'; loops: Vec2[][] }
  | { kind: 'leader'; vertices: Vec2[]; text: string }
  | { kind: 'solid'; corners: Vec2[] }
  | { kind: 'viewport'; center: Vec2; width: number; height: number; viewCenter: Vec2; viewHeight: number; id: number }
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
  /** Lineweight in 1/100 mm (group 370); -3 = default, -2 = by block, -1 = by layer. */
  lineWeight: number;
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
  blocks: Map<string, DxfBlock>;
  layouts: DxfLayout[];
  entitiesByHandle: Map<string, DxfEntity>;
  sections: TagRange[];
  tables: TagRange[];
  problems: DxfProblem[];
}
