// DXF entity tags for the review evaluation's generated sheets, written through the project's
// writer (drawing's writeDxf) onto a template made by the project's ezdxf generator. Only what the
// sheets need: lines, closed polylines, circles, texts, linear dimensions and viewports, in model
// or paper space (the template's active layout), on a named layer.
import { dialectOf, HandleAllocator, writeDxf, type DxfDocument, type Tag } from '../../../electron/features/drawing/index';

export interface Pt {
  x: number;
  y: number;
}

export type Space = 'model' | 'paper';

const num = (v: number): string => String(Math.round(v * 1e6) / 1e6);

/** Collects entities for one file and writes them onto the template. */
export class EntityWriter {
  private readonly tags: Tag[] = [];
  private readonly handles: HandleAllocator;
  private readonly modelOwner: string;
  private readonly paperOwner: string;

  constructor(private readonly doc: DxfDocument) {
    this.handles = new HandleAllocator(doc);
    const record = (name: string): string => {
      const handle = [...doc.blockRecords].find(([, n]) => n.toUpperCase() === name)?.[0];
      if (!handle) throw new Error(`the template has no ${name} block record`);
      return handle;
    };
    this.modelOwner = record('*MODEL_SPACE');
    this.paperOwner = record('*PAPER_SPACE');
    if (!dialectOf(doc).subclasses) throw new Error('the template must be R2000 or later');
  }

  private head(type: string, subclass: string, layer: string, space: Space): Tag[] {
    const tags: Tag[] = [[0, type], [5, this.handles.take()], [330, space === 'paper' ? this.paperOwner : this.modelOwner], [100, 'AcDbEntity']];
    if (space === 'paper') tags.push([67, '1']);
    tags.push([8, layer], [100, subclass]);
    return tags;
  }

  line(a: Pt, b: Pt, layer: string, space: Space = 'model'): void {
    this.tags.push(...this.head('LINE', 'AcDbLine', layer, space), [10, num(a.x)], [20, num(a.y)], [30, '0'], [11, num(b.x)], [21, num(b.y)], [31, '0']);
  }

  rectangle(min: Pt, max: Pt, layer: string, space: Space = 'model'): void {
    const corners = [min, { x: max.x, y: min.y }, max, { x: min.x, y: max.y }];
    this.tags.push(...this.head('LWPOLYLINE', 'AcDbPolyline', layer, space), [90, '4'], [70, '1']);
    for (const p of corners) this.tags.push([10, num(p.x)], [20, num(p.y)]);
  }

  circle(centre: Pt, radius: number, layer: string, space: Space = 'model'): void {
    this.tags.push(...this.head('CIRCLE', 'AcDbCircle', layer, space), [10, num(centre.x)], [20, num(centre.y)], [30, '0'], [40, num(radius)]);
  }

  text(value: string, at: Pt, height: number, layer: string, space: Space = 'model', style = 'GB'): void {
    this.tags.push(...this.head('TEXT', 'AcDbText', layer, space), [10, num(at.x)], [20, num(at.y)], [30, '0'], [40, num(height)], [1, value], [7, style], [100, 'AcDbText']);
  }

  /** A horizontal linear dimension from p1 to p2 with its line at `lineY`; `override` as group 1 ("" = measured). */
  dimension(p1: Pt, p2: Pt, lineY: number, override: string, layer: string, space: Space = 'model', style = 'GB'): void {
    const measurement = Math.abs(p2.x - p1.x);
    this.tags.push(
      ...this.head('DIMENSION', 'AcDbDimension', layer, space),
      [10, num(p2.x)], [20, num(lineY)], [30, '0'],
      [11, num((p1.x + p2.x) / 2)], [21, num(lineY + 2)], [31, '0'],
      [70, '32'], [1, override], [42, num(measurement)], [3, style],
      [100, 'AcDbAlignedDimension'],
      [13, num(p1.x)], [23, num(p1.y)], [33, '0'],
      [14, num(p2.x)], [24, num(p2.y)], [34, '0'],
      [50, '0'], [100, 'AcDbRotatedDimension'],
    );
  }

  /** A paper-space viewport at `centre` (paper) showing model space around `viewCentre` at 1:`scale`. */
  viewport(centre: Pt, width: number, height: number, viewCentre: Pt, scale: number, id: number): void {
    this.tags.push(
      ...this.head('VIEWPORT', 'AcDbViewport', 'VIEWPORTS', 'paper'),
      [10, num(centre.x)], [20, num(centre.y)], [30, '0'], [40, num(width)], [41, num(height)], [68, '1'], [69, String(id)],
      [12, num(viewCentre.x)], [22, num(viewCentre.y)], [13, '0'], [23, '0'], [14, '10'], [24, '10'], [15, '10'], [25, '10'],
      [16, '0'], [26, '0'], [36, '1'], [17, '0'], [27, '0'], [37, '0'], [42, '50'], [43, '0'], [44, '0'], [45, num(height * scale)],
      [50, '0'], [51, '0'], [72, '1000'], [90, '32864'], [1, ''], [281, '0'], [71, '1'], [74, '0'], [110, '0'], [120, '0'], [130, '0'],
      [111, '1'], [121, '0'], [131, '0'], [112, '0'], [122, '1'], [132, '0'], [79, '0'], [146, '0'], [170, '0'],
    );
  }

  /** The file's text: the template's tags with these entities appended (and the layers they name). */
  serialise(extraLayers: readonly string[] = []): string {
    const layerTable = this.doc.tables.find((t) => t.name === 'LAYER');
    const layerEntries: Tag[] = [];
    for (const name of extraLayers) {
      if ([...this.doc.layers.keys()].some((l) => l.toUpperCase() === name.toUpperCase())) continue;
      layerEntries.push([0, 'LAYER'], [5, this.handles.take()], [330, layerTable?.handle ?? '0'], [100, 'AcDbSymbolTableRecord'], [100, 'AcDbLayerTableRecord'], [2, name], [70, '0'], [62, '7'], [6, 'Continuous'], [370, '-3']);
    }
    return writeDxf(this.doc, { entities: this.tags, layerEntries, handSeed: this.handles.seed() });
  }
}
