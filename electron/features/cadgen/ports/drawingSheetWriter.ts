import type { SheetSpec } from '../../../../shared/drawingSheet';

/**
 * Turns a composed sheet into DXF text (R2013, GB template layers and styles). The Drawing slice
 * implements it; a composition root wires it in, so cadgen never imports the Drawing slice.
 * Errors: CDSL_DRAWING_FAILED when the template is missing or unreadable.
 */
export interface DrawingSheetWriter {
  writeDxf(sheet: SheetSpec): string;
}
