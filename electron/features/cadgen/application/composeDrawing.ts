import { AppError } from '../../../../shared/errors';
import type { Claim } from '../domain/claims';
import type { CdslDocument } from '../domain/document';
import { composeSheet, sectionPlaneY } from '../domain/drawingSheet/composeSheet';
import type { ComposedSheet } from '../domain/drawingSheet/composeSheet';
import type { SheetFormat, SheetLanguage, TitleBlockValues } from '../domain/drawingSheet/sheetFrame';
import type { ProjectionMethod } from '../domain/drawingViews';
import type { CadRuntime, ProjectionView } from '../ports/cadRuntime';
import type { DrawingSheetWriter } from '../ports/drawingSheetWriter';

export interface DrawingRequest {
  document: CdslDocument;
  /** The frozen contract's claims: every dimensional one becomes a dimension. */
  claims: Claim[];
  method: ProjectionMethod;
  format: SheetFormat | 'auto';
  lang: SheetLanguage;
  titleBlock: Omit<TitleBlockValues, 'scale'>;
}

export interface DrawingResult {
  dxf: string;
  sheet: Omit<ComposedSheet, 'spec'>;
}

/**
 * A completed revision as a GB part drawing: the revision is rebuilt on the kernel with its
 * hidden-line projections (and a full front section through its main bore when it has one), the sheet composed from them, the measured topology and the claims,
 * and written as DXF through the writer port. Errors: CDSL_RUNTIME_* from the runtime;
 * CDSL_DRAWING_FAILED when the revision does not rebuild or has no projections.
 */
export async function composeDrawing(deps: { runtime: CadRuntime; writer: DrawingSheetWriter }, request: DrawingRequest): Promise<DrawingResult> {
  // The section plane comes from the measured bores, so the revision is measured first.
  const measured = await deps.runtime.build(request.document, { step: false, meshes: false, projections: false });
  const planeY = measured.ok && measured.snapshot ? sectionPlaneY(measured.snapshot) : undefined;
  const outcome = await deps.runtime.build(request.document, { step: false, meshes: false, projections: true, projection_method: request.method, ...(planeY !== undefined ? { section: { plane_y: planeY } } : {}) });
  const byView = new Map<string, ProjectionView>((outcome.projections ?? []).map((v) => [v.view, v]));
  const side = byView.get(request.method === 'first_angle' ? 'left' : 'right');
  const front = byView.get('front');
  const top = byView.get('top');
  if (!outcome.ok || !outcome.snapshot || !front || !top || !side) {
    throw new AppError('CDSL_DRAWING_FAILED', `revision "${request.document.name}" did not rebuild with its projections; no drawing was made`, { data: { failed: outcome.features.filter((f) => f.status === 'failed').map((f) => f.id) } });
  }
  const section = outcome.section ? { planeY: outcome.section.plane_y, visible: outcome.section.visible, faces: outcome.section.faces } : undefined;
  const composed = composeSheet({ views: { front, top, side, ...(section ? { section } : {}) }, snapshot: outcome.snapshot, claims: request.claims, method: request.method, format: request.format, lang: request.lang, titleBlock: request.titleBlock });
  const { spec, ...sheet } = composed;
  return { dxf: deps.writer.writeDxf(spec), sheet };
}
