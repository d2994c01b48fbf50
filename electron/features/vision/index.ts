/**
 * Public entry of the vision slice: the engine factory, its ports and the adapters the
 * composition roots (electron/host/visionMcp.ts, the desktop main) wire together.
 */
export { createVisionService, type TurnResult, type VisionDeps, type VisionService, type VisionSettings } from './application/visionService';
export type { DocumentResult } from './application/documentTypes';
export type { IntakeLimits } from './application/imageIntake';
export type { ImageBudget } from './domain/imageBudget';
export { imageLimitsFor, MIN_SHORT_EDGE, type ImageLimits } from './domain/imageLimits';
export { estimateVisionTokens, type FractionRegion } from './domain/imageMath';
export { MIN_LEGIBLE_TEXT_PX, type SmallText } from './domain/textLegibility';
export type { SessionListing, UsageTotals } from './domain/session';
export { visionHints, type VisionErrorCode } from './domain/errors';
export { shortenSource } from './domain/sourceClassifier';
export { addressPolicy } from './domain/urlPolicy';
export type { ImageProcessor } from './ports/imageProcessor';
export type { ImageSourceLoader } from './ports/imageSources';
export type { CallOptions, Clock, ProgressReporter, VideoFrameExtractor } from './ports/runtime';
export type { VisionSessionRepository } from './ports/sessionRepository';
export { createFfmpegFrameExtractor, type FfmpegOptions } from './adapters/ffmpegFrameExtractor';
export { createPdfjsRenderer } from './adapters/pdf/pdfjsRenderer';
export type { PdfRenderer } from './ports/pdfRenderer';
export { createSharpImageProcessor, RESIZE_KERNEL, type SharpProcessorOptions } from './adapters/sharpImageProcessor';
export { createSourceLoader, type SourceLoaderOptions } from './adapters/sourceLoader';
export { createSqliteSessionRepository } from './adapters/sqliteSessionRepository';
export { visionMigrations, visionTilesMigration } from './migrations';
