/**
 * A drawing sheet as plain data: what cadgen composes from a verified part and what the Drawing
 * slice's writer turns into a DXF. Coordinates are model millimetres (the part at true size);
 * the frame, lettering and dimension furniture are drawn `scaleFactor` times their paper size
 * (1:2 → a 594 × 420 "A3" frame), as GB drawings in model space are. Layer names are the template's
 * GB/T 4457.4 layers.
 */
export type SheetLayer = '图框' | '粗实线' | '细实线' | '虚线' | '中心线' | '尺寸标注' | '剖面线' | '文字';

export interface SheetPoint {
  x: number;
  y: number;
}

export type SheetEntity =
  | { kind: 'line'; layer: SheetLayer; from: SheetPoint; to: SheetPoint }
  | { kind: 'circle'; layer: SheetLayer; center: SheetPoint; radius: number }
  /** Counter-clockwise from `startDeg` to `endDeg` (degrees, as DXF ARC). */
  | { kind: 'arc'; layer: SheetLayer; center: SheetPoint; radius: number; startDeg: number; endDeg: number }
  | { kind: 'polyline'; layer: SheetLayer; points: SheetPoint[]; closed: boolean }
  /** Single-line text; `align` picks the insertion point (left baseline, centre baseline, middle-centre). */
  | { kind: 'text'; layer: SheetLayer; at: SheetPoint; height: number; text: string; align?: 'left' | 'center' | 'middle'; rotationDeg?: number }
  /** A solid triangle (projection symbol, section arrows). */
  | { kind: 'solid'; layer: SheetLayer; points: [SheetPoint, SheetPoint, SheetPoint] }
  /** ANSI31 hatch (45°) over closed loops: the first is the outer boundary, the rest are islands. */
  | { kind: 'hatch'; layer: SheetLayer; loops: SheetPoint[][] }
  | SheetDimension;

/**
 * A real DIMENSION. `linear`: the distance between `p1` and `p2` measured along `angleDeg`
 * (0 horizontal, 90 vertical), the dimension line through `at`. `diameter`/`radius`: a circle at
 * `center` of `radius`, the leader through `at`. `angular`: the angle at `center` from `p1` to `p2`.
 * `text` is the displayed text with `<>` standing for the measurement (e.g. "Ø<>", "4×Ø<> EQS").
 */
export type SheetDimension =
  | { kind: 'dimension'; type: 'linear'; p1: SheetPoint; p2: SheetPoint; at: SheetPoint; angleDeg: number; text: string; tolerance?: SheetTolerance }
  | { kind: 'dimension'; type: 'diameter' | 'radius'; center: SheetPoint; radius: number; at: SheetPoint; text: string; tolerance?: SheetTolerance }
  | { kind: 'dimension'; type: 'angular'; center: SheetPoint; p1: SheetPoint; p2: SheetPoint; at: SheetPoint; text: string; tolerance?: SheetTolerance };

/** A symmetric or bilateral tolerance shown after the value (± 0.01, +0.02/−0.01). */
export interface SheetTolerance {
  upper: number;
  lower: number;
}

export interface SheetSpec {
  /** Model units per paper millimetre (1:2 → 2, 2:1 → 0.5). */
  scaleFactor: number;
  entities: SheetEntity[];
}
