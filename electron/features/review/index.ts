// Public entry of the Review slice: drawing review over a DrawingSource (AutoCAD plugin or the
// embedded DXF backend), its SQLite store, report output and annotation writer. Composition roots
// and other slices import only from here.
export type { DrawingCapability, DrawingSource, DrawingToolContent, DrawingToolInfo, DrawingToolResult, DrawingWriteTarget } from './ports/drawingSource';
export type { ReviewOutput } from './ports/reviewOutput';
export type { FrameRecord, FrameStatus, ReviewStore, RunOptions, RunRecord, RunStatus, RunUsage, WriteRecord } from './ports/reviewStore';
export { parseChecklist, checklistSchema, checklistHash, SEVERITIES } from './domain/checklist';
export type { Checklist, ChecklistItem, Severity } from './domain/checklist';
export type { Frame } from './domain/frame';
export type { Finding, FindingLocation } from './domain/finding';
export type { Annotation, AnnotationState, AnnotationEvent } from './domain/annotation';
export { reportSchema, REPORT_SCHEMA_VERSION } from './domain/report';
export type { ReviewReport } from './domain/report';
export { renderReportMarkdown } from './domain/markdown';
export type { ReviewLocale } from './domain/rules';
export { planReview } from './application/plan';
export type { ReviewPlan } from './application/plan';
export { newMeter } from './application/toolCalls';
export { startReview, resumeReview } from './application/reviewRunner';
export type { ReviewProgress, ReviewRunnerDeps, ReviewRunResult, ReviewSession } from './application/reviewRunner';
export { listAnnotatedFindings, decideAnnotation, promoteHypothesis, writeAllFindings, writeApprovedAnnotations } from './application/annotationWriter';
export type { AnnotatedFinding, WriteOutcome } from './application/annotationWriter';
export { reviewMigrations } from './migrations';
export { createSqliteReviewStore } from './adapters/sqliteReviewStore';
export { createFolderOutput } from './adapters/folderOutput';
export { reviewFrameWithLlm, SUBMIT_TOOL } from './application/llmReview';
export type { LlmReviewSettings, LlmCallLog } from './application/llmReview';
export { preflightReviewer, PREFLIGHT_FRAME_ID } from './application/llmPreflight';
export type { PreflightOutcome } from './application/llmPreflight';
export { createSetReportBuilder, renderSetMarkdown, worstExitCode } from './domain/setReport';
export type { SetFileOutcome, SetReport, SetReportBuilder, SetSheetRow } from './domain/setReport';
