// Public entry of the Drawing slice: the DXF drawing itself — tag reader (ASCII/binary, code
// pages), document model, layouts, frames and title blocks, spatial index and queries, checks,
// write-back — and its adapters (file opening, PNG rendering). CadLink serves a drawing over the
// cad_mcp_frame protocol through this entry; other slices reach drawings only through CadLink.
export * from './domain';
export { dialectOf, HandleAllocator, REVIEW_LAYER, REVIEW_TEXT_STYLE, reviewLayerTags, reviewStyleTags, leaderTags, revisionCloudTags, textTags } from './domain/annotations';
export type { Dialect, EntityTarget, Tag } from './domain/annotations';
export { DrawingIndex, primitiveBox } from './domain/bounds';
export { findDuplicates, findZeroLength } from './domain/checks';
export { findFrames, framesInBox } from './domain/frames';
export type { DrawingFrame } from './domain/frames';
export { apply, boxesIntersect, emptyBox, isEmptyBox, unionBox } from './domain/geometry';
export { boxJson, countByType, entityJson, filterEntities, insertCounts, layoutByName, r6 } from './domain/queries';
export { writeDxf } from './domain/writer';
export { writeSheetDxf } from './domain/sheetDxf';
export { canStoreReviewIds, hasReviewApp, REVIEW_APP, reviewAppTags, reviewIdOf, reviewIdXdata } from './domain/reviewXdata';
export type { DxfScreenshotRenderer } from './ports/drawingRenderer';
export { DEFAULT_DXF_LIMITS, dxfLimitsFromEnv, openDxfFile, parseDxfBytes } from './adapters/file/openDxfFile';
export type { DxfSizeLimits, OpenedDxf } from './adapters/file/openDxfFile';
export { MAX_EXPANDED_ENTITIES, MAX_NESTING } from './domain/blockExpansion';
export { createLegacyEncoder } from './adapters/file/codePages';
export type { TextEncodingChoice } from './adapters/file/codePages';
export { createCanvasDxfRenderer, DEFAULT_CJK_FONT_FILES, renderSheetPdf } from './adapters/render/canvasRenderer';
export { layoutExtents, layoutScene, toSheet } from './domain/scene';
export type { ScenePart } from './domain/scene';
export { insidePolygon, layoutViewports, viewportTransform } from './domain/viewports';
export { seenThroughViewports, sheetTexts } from './domain/sheetContent';
export type { SeenThroughViewport } from './domain/sheetContent';
export type { LayoutViewport } from './domain/viewports';
