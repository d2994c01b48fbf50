import type { SheetDimension, SheetEntity, SheetPoint, SheetSpec } from '../../../../shared/drawingSheet';
import { HandleAllocator, type Tag } from './annotations';
import type { DxfDocument } from './model';
import { writeDxf } from './writer';

/** The template's GB text and dimension styles (resources/drawing/gb_part_template.dxf). */
const TEXT_STYLE = 'GB';
const DIM_STYLE = 'GB';
/** GB dimension furniture on paper (mm): arrow length, text height, gap, extension beyond the line. */
const ARROW = 3;
const DIM_TEXT = 3.5;
const TEXT_GAP = 1;
const EXT_BEYOND = 2;
/** ANSI31 line spacing on paper (mm). */
const HATCH_SPACING = 3;

const num = (v: number): string => String(Math.round(v * 1e9) / 1e9);
const fmt = (v: number): string => String(Math.round(v * 100) / 100);
/** Tolerances keep their thousandths (±0.015). */
const fmtTolerance = (v: number): string => String(Math.round(v * 10000) / 10000);
const deg = Math.PI / 180;

class EntityWriter {
  readonly entities: Tag[] = [];
  readonly records: Tag[] = [];
  readonly blocks: Tag[] = [];
  private dimBlocks = 0;
  constructor(
    private readonly handles: HandleAllocator,
    private readonly modelSpace: string,
    private readonly recordTable: string,
    private readonly k: number,
    private readonly existingBlocks: Set<string>,
  ) {}

  private head(out: Tag[], type: string, layer: string, subclass: string, owner: string, extra: Tag[] = []): string {
    const handle = this.handles.take();
    out.push([0, type], [5, handle], [330, owner], [100, 'AcDbEntity'], [8, layer], ...extra, [100, subclass]);
    return handle;
  }

  /** Geometry and lettering tags of one non-dimension entity, appended to `out` owned by `owner`. */
  entity(out: Tag[], e: Exclude<SheetEntity, SheetDimension>, owner: string): void {
    const ltscale: Tag[] = e.layer === '中心线' || e.layer === '虚线' ? [[48, num(this.k)]] : [];
    switch (e.kind) {
      case 'line':
        this.head(out, 'LINE', e.layer, 'AcDbLine', owner, ltscale);
        out.push([10, num(e.from.x)], [20, num(e.from.y)], [30, '0'], [11, num(e.to.x)], [21, num(e.to.y)], [31, '0']);
        return;
      case 'circle':
        this.head(out, 'CIRCLE', e.layer, 'AcDbCircle', owner, ltscale);
        out.push([10, num(e.center.x)], [20, num(e.center.y)], [30, '0'], [40, num(e.radius)]);
        return;
      case 'arc':
        this.head(out, 'ARC', e.layer, 'AcDbCircle', owner, ltscale);
        out.push([10, num(e.center.x)], [20, num(e.center.y)], [30, '0'], [40, num(e.radius)], [100, 'AcDbArc'], [50, num(e.startDeg)], [51, num(e.endDeg)]);
        return;
      case 'polyline':
        this.head(out, 'LWPOLYLINE', e.layer, 'AcDbPolyline', owner, ltscale);
        out.push([90, String(e.points.length)], [70, e.closed ? '1' : '0'], [43, '0']);
        for (const p of e.points) out.push([10, num(p.x)], [20, num(p.y)]);
        return;
      case 'text':
        this.text(out, e.layer, owner, e.at, e.height, e.text, e.align ?? 'left', e.rotationDeg ?? 0);
        return;
      case 'solid': {
        this.head(out, 'SOLID', e.layer, 'AcDbTrace', owner);
        const [a, b, c] = e.points;
        out.push([10, num(a.x)], [20, num(a.y)], [30, '0'], [11, num(b.x)], [21, num(b.y)], [31, '0'], [12, num(c.x)], [22, num(c.y)], [32, '0'], [13, num(c.x)], [23, num(c.y)], [33, '0']);
        return;
      }
      case 'hatch':
        this.hatch(out, e.layer, owner, e.loops);
        return;
    }
  }

  private text(out: Tag[], layer: string, owner: string, at: SheetPoint, height: number, text: string, align: 'left' | 'center' | 'middle', rotation: number): void {
    this.head(out, 'TEXT', layer, 'AcDbText', owner);
    out.push([10, num(at.x)], [20, num(at.y)], [30, '0'], [40, num(height)], [1, text]);
    if (rotation) out.push([50, num(rotation)]);
    out.push([41, '0.7'], [7, TEXT_STYLE]);
    if (align !== 'left') out.push([72, '1'], [11, num(at.x)], [21, num(at.y)], [31, '0']);
    out.push([100, 'AcDbText']);
    if (align === 'middle') out.push([73, '2']);
  }

  private hatch(out: Tag[], layer: string, owner: string, loops: SheetPoint[][]): void {
    this.head(out, 'HATCH', layer, 'AcDbHatch', owner);
    out.push([10, '0'], [20, '0'], [30, '0'], [210, '0'], [220, '0'], [230, '1'], [2, 'ANSI31'], [70, '0'], [71, '0'], [91, String(loops.length)]);
    loops.forEach((loop, i) => {
      out.push([92, i === 0 ? '3' : '2'], [72, '0'], [73, '1'], [93, String(loop.length)]);
      for (const p of loop) out.push([10, num(p.x)], [20, num(p.y)]);
      out.push([97, '0']);
    });
    const s = HATCH_SPACING * this.k;
    out.push([75, '1'], [76, '1'], [52, '0'], [41, num(s / 3.175)], [77, '0'], [78, '1'], [53, '45'], [43, '0'], [44, '0'], [45, num(-s * Math.SQRT1_2)], [46, num(s * Math.SQRT1_2)], [79, '0'], [98, '0']);
  }

  private arrow(out: Tag[], owner: string, tip: SheetPoint, dx: number, dy: number): void {
    // (dx, dy): unit direction the arrow points to; the body lies behind the tip.
    const size = ARROW * this.k;
    const base = { x: tip.x - dx * size, y: tip.y - dy * size };
    const half = size / 6;
    this.entity(out, { kind: 'solid', layer: '尺寸标注', points: [tip, { x: base.x - dy * half, y: base.y + dx * half }, { x: base.x + dy * half, y: base.y - dx * half }] }, owner);
  }

  private newDimBlock(): { name: string; record: string; tags: Tag[] } {
    let name: string;
    do name = `*D${++this.dimBlocks}`;
    while (this.existingBlocks.has(name.toUpperCase()));
    const record = this.handles.take();
    this.records.push([0, 'BLOCK_RECORD'], [5, record], [330, this.recordTable], [100, 'AcDbSymbolTableRecord'], [100, 'AcDbBlockTableRecord'], [2, name], [340, '0'], [70, '0'], [280, '1'], [281, '0']);
    return { name, record, tags: [] };
  }

  /** A DIMENSION entity and its anonymous block (lines, arrows, text), as AutoCAD stores them. */
  dimension(d: SheetDimension): void {
    const block = this.newDimBlock();
    const k = this.k;
    const line = (a: SheetPoint, b: SheetPoint): void => this.entity(block.tags, { kind: 'line', layer: '尺寸标注', from: a, to: b }, block.record);
    let measurement: number;
    let textAt: SheetPoint;
    let textRotation = 0;
    let defPoint: SheetPoint;
    let typeTags: Tag[];
    let dimtype: number;
    if (d.type === 'linear') {
      const ux = Math.cos(d.angleDeg * deg);
      const uy = Math.sin(d.angleDeg * deg);
      const along = (p: SheetPoint): number => p.x * ux + p.y * uy;
      const across = (p: SheetPoint): number => -p.x * uy + p.y * ux;
      const c = across(d.at);
      const onLine = (p: SheetPoint): SheetPoint => ({ x: along(p) * ux - c * uy, y: along(p) * uy + c * ux });
      const a = onLine(d.p1);
      const b = onLine(d.p2);
      measurement = Math.abs(along(d.p2) - along(d.p1));
      for (const [p, q] of [[d.p1, a], [d.p2, b]] as const) {
        const len = Math.hypot(q.x - p.x, q.y - p.y);
        if (len > 1e-9) line(p, { x: q.x + ((q.x - p.x) / len) * EXT_BEYOND * k, y: q.y + ((q.y - p.y) / len) * EXT_BEYOND * k });
      }
      line(a, b);
      const dir = along(d.p2) >= along(d.p1) ? 1 : -1;
      this.arrow(block.tags, block.record, a, -ux * dir, -uy * dir);
      this.arrow(block.tags, block.record, b, ux * dir, uy * dir);
      const mid = { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 };
      // Text above the line (GB: reads from below or from the right).
      textAt = { x: mid.x - uy * (TEXT_GAP + DIM_TEXT / 2) * k, y: mid.y + ux * (TEXT_GAP + DIM_TEXT / 2) * k };
      textRotation = d.angleDeg > 45 && d.angleDeg <= 135 ? 90 : 0;
      defPoint = b;
      dimtype = 0;
      typeTags = [[100, 'AcDbAlignedDimension'], [13, num(d.p1.x)], [23, num(d.p1.y)], [33, '0'], [14, num(d.p2.x)], [24, num(d.p2.y)], [34, '0'], [50, num(d.angleDeg)], [100, 'AcDbRotatedDimension']];
    } else if (d.type === 'diameter' || d.type === 'radius') {
      const len = Math.hypot(d.at.x - d.center.x, d.at.y - d.center.y) || 1;
      const ux = (d.at.x - d.center.x) / len;
      const uy = (d.at.y - d.center.y) / len;
      const near = { x: d.center.x + ux * d.radius, y: d.center.y + uy * d.radius };
      const far = { x: d.center.x - ux * d.radius, y: d.center.y - uy * d.radius };
      const shelf = { x: d.at.x + (ux >= 0 ? 1 : -1) * 12 * k, y: d.at.y };
      if (d.type === 'diameter') {
        measurement = 2 * d.radius;
        line(far, d.at);
        this.arrow(block.tags, block.record, far, -ux, -uy);
        defPoint = far;
        dimtype = 3;
        typeTags = [[100, 'AcDbDiametricDimension'], [15, num(near.x)], [25, num(near.y)], [35, '0'], [40, num(len - d.radius)]];
      } else {
        measurement = d.radius;
        line(d.center, d.at);
        defPoint = d.center;
        dimtype = 4;
        typeTags = [[100, 'AcDbRadialDimension'], [15, num(near.x)], [25, num(near.y)], [35, '0'], [40, num(len - d.radius)]];
      }
      this.arrow(block.tags, block.record, near, ux, uy);
      line(d.at, shelf);
      textAt = { x: (d.at.x + shelf.x) / 2, y: d.at.y + (TEXT_GAP + DIM_TEXT / 2) * k };
    } else {
      const a = d as Extract<SheetDimension, { type: 'angular' }>;
      const a1 = Math.atan2(a.p1.y - d.center.y, a.p1.x - d.center.x);
      let a2 = Math.atan2(a.p2.y - d.center.y, a.p2.x - d.center.x);
      if (a2 < a1) a2 += 2 * Math.PI;
      measurement = (a2 - a1) / deg;
      const r = Math.hypot(d.at.x - d.center.x, d.at.y - d.center.y);
      this.entity(block.tags, { kind: 'arc', layer: '尺寸标注', center: d.center, radius: r, startDeg: a1 / deg, endDeg: a2 / deg }, block.record);
      // Extension lines along both sides from the vertex to just past the arc, arrows on the arc's ends pointing outwards along it.
      for (const [angle, turn] of [[a1, -1], [a2, 1]] as const) {
        const ux = Math.cos(angle);
        const uy = Math.sin(angle);
        line({ x: d.center.x + ux * TEXT_GAP * k, y: d.center.y + uy * TEXT_GAP * k }, { x: d.center.x + ux * (r + EXT_BEYOND * k), y: d.center.y + uy * (r + EXT_BEYOND * k) });
        this.arrow(block.tags, block.record, { x: d.center.x + ux * r, y: d.center.y + uy * r }, -uy * turn, ux * turn);
      }
      const mid = (a1 + a2) / 2;
      textAt = { x: d.center.x + Math.cos(mid) * (r + (TEXT_GAP + DIM_TEXT / 2) * k), y: d.center.y + Math.sin(mid) * (r + (TEXT_GAP + DIM_TEXT / 2) * k) };
      defPoint = d.at;
      dimtype = 5;
      typeTags = [[100, 'AcDb3PointAngularDimension'], [13, num(a.p1.x)], [23, num(a.p1.y)], [33, '0'], [14, num(a.p2.x)], [24, num(a.p2.y)], [34, '0'], [15, num(d.center.x)], [25, num(d.center.y)], [35, '0']];
    }
    const tol = d.tolerance ? (d.tolerance.upper === -d.tolerance.lower ? `%%p${fmtTolerance(d.tolerance.upper)}` : ` +${fmtTolerance(d.tolerance.upper)}/${fmtTolerance(d.tolerance.lower)}`) : '';
    const shown = d.text.replace('<>', fmt(measurement)) + tol;
    this.text(block.tags, '尺寸标注', block.record, textAt, DIM_TEXT * k, shown, 'middle', textRotation);
    const handle = this.head(this.entities, 'DIMENSION', '尺寸标注', 'AcDbDimension', this.modelSpace);
    void handle;
    this.entities.push([280, '0'], [2, block.name], [10, num(defPoint.x)], [20, num(defPoint.y)], [30, '0'], [11, num(textAt.x)], [21, num(textAt.y)], [31, '0'], [70, String(dimtype | 32)], [71, '5'], [42, num(measurement)], [1, d.tolerance ? d.text : d.text + tol], [3, DIM_STYLE], ...typeTags, ...toleranceOverride(d.tolerance));
    const blockHandle = this.handles.take();
    this.blocks.push([0, 'BLOCK'], [5, blockHandle], [330, block.record], [100, 'AcDbEntity'], [8, '0'], [100, 'AcDbBlockBegin'], [2, block.name], [70, '1'], [10, '0'], [20, '0'], [30, '0'], [3, block.name], [1, '']);
    this.blocks.push(...block.tags);
    this.blocks.push([0, 'ENDBLK'], [5, this.handles.take()], [330, block.record], [100, 'AcDbEntity'], [8, '0'], [100, 'AcDbBlockEnd']);
  }
}

/**
 * A dimension's tolerance as AutoCAD stores it: DIMTOL on with DIMTP/DIMTM (upper, minus the
 * lower) and three tolerance decimals in the entity's DSTYLE override, so an editor regenerating
 * the dimension shows the same "±0.015" the block prints.
 */
function toleranceOverride(tolerance: SheetDimension['tolerance']): Tag[] {
  if (!tolerance) return [];
  return [[1001, 'ACAD'], [1000, 'DSTYLE'], [1002, '{'], [1070, '71'], [1070, '1'], [1070, '47'], [1040, num(tolerance.upper)], [1070, '48'], [1040, num(-tolerance.lower)], [1070, '272'], [1070, '3'], [1002, '}']];
}

/**
 * Writes a sheet into the GB template (resources/drawing/gb_part_template.dxf, already parsed):
 * model-space entities on the template's layers, dimensions as DIMENSION entities with their
 * anonymous blocks, through the slice's writer. Errors: CAD_DXF_INVALID-like template problems
 * surface as a thrown Error naming the missing table (the template is a shipped resource).
 */
export function writeSheetDxf(template: DxfDocument, sheet: SheetSpec): string {
  const modelSpace = [...template.blockRecords].find(([, name]) => name.toUpperCase() === '*MODEL_SPACE')?.[0];
  const recordTable = template.tables.find((t) => t.name === 'BLOCK_RECORD')?.handle;
  if (!modelSpace || !recordTable) throw new Error('the sheet template has no *Model_Space block record');
  const handles = new HandleAllocator(template);
  const writer = new EntityWriter(handles, modelSpace, recordTable, sheet.scaleFactor, new Set([...template.blocks.keys()].map((n) => n.toUpperCase())));
  for (const e of sheet.entities) {
    if (e.kind === 'dimension') writer.dimension(e);
    else writer.entity(writer.entities, e, modelSpace);
  }
  return writeDxf(template, { entities: writer.entities, layerEntries: [], blockRecordEntries: writer.records, blocks: writer.blocks, handSeed: handles.seed() });
}
