import type { Frame } from './frame';
import type { BBox } from './geometry';

/** A window of a paper sheet onto model space, as the backend reports it for a frame. */
export interface SheetViewport {
  handle: string;
  /** Clip box on the sheet (paper units). */
  bbox: BBox;
  /** Model-space box seen through it. */
  modelBbox: BBox;
  /** Model units per paper unit (1:2 → 2). */
  scale: number;
}

/**
 * The sheet a frame is reviewed on: the space it lives in (model space, or one paper-space layout
 * plotted with model space through its viewports), its extents in that space, and its viewports.
 * Evidence, screenshots, rule geometry, finding locations and the annotations written back are
 * all in this sheet's coordinates, so every read and write of a frame goes through it.
 */
export interface Sheet {
  space: 'model' | 'paper';
  /** "Model", or the paper layout's name. */
  layout: string;
  /** The frame's box in the sheet's coordinates (paper units on a layout). */
  extents: BBox;
  viewports: readonly SheetViewport[];
  frame: Frame;
}

/** True for a layout name that is a paper layout ("Model" is model space, any case). */
export const isPaperLayout = (layout: string): boolean => layout.toUpperCase() !== 'MODEL';

export function sheetOf(frame: Frame): Sheet {
  const paper = isPaperLayout(frame.layout);
  return { space: paper ? 'paper' : 'model', layout: paper ? frame.layout : 'Model', extents: frame.bbox, viewports: paper ? (frame.viewports ?? []) : [], frame };
}

/**
 * Arguments that put a read in the sheet's space: a paper sheet reads its layout with what its
 * viewports show (tools that do not declare these inputs get them dropped by the caller, which
 * keeps the AutoCAD plugin's protocol as it is); model space needs none.
 */
export function sheetReadArgs(sheet: Pick<Sheet, 'space' | 'layout'>): Record<string, unknown> {
  return sheet.space === 'paper' ? { layout: sheet.layout, through_viewports: true } : {};
}

/** Arguments that render or write in the sheet's space (a paper sheet: its layout, as plotted). */
export function sheetSpaceArgs(sheet: Pick<Sheet, 'space' | 'layout'>): Record<string, unknown> {
  return sheet.space === 'paper' ? { layout: sheet.layout } : {};
}
