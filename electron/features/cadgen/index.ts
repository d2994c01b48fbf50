/**
 * CDSL geometry slice (public entry). Composition roots wire the OCCT worker runtime, the
 * artifact publisher and encoders; everything else goes through the catalog and use cases.
 */
export { createCdslCatalog } from './application/cdslCatalog';
export type { CdslCatalog } from './application/cdslCatalog';
export { buildDocument } from './application/buildDocument';
export type { BuildDependencies, BuildReport, BuildRequest } from './application/buildDocument';
export { parseClaims, evaluateClaims } from './application/evaluateClaims';
export type { ClaimResult } from './application/evaluateClaims';
export type { CadRuntime, BuildOutcome, BuildOutputs, FeatureReport, FaceMesh, ProjectionView, SectionView, StepInspection, RuntimeStats } from './ports/cadRuntime';
export type { ArtifactPublisher, ArtifactEncoders, ArtifactManifest, ArtifactFile, ReviewRenderEncoder } from './ports/artifactPublisher';
export type { CdslDocument, CdslFeature, CdslFragment } from './domain/document';
export { CDSL_VERSION } from './domain/document';
export { DEFAULT_PROJECTION_METHOD, VIEW_CAMERAS, viewsFor } from './domain/drawingViews';
export type { ProjectionMethod, ViewCamera } from './domain/drawingViews';
export type { TopologySnapshot, FaceInfo, EdgeInfo, FeatureRefInfo, Measurements } from './domain/topology';
export type { OperationContract } from './domain/contracts/types';
export type { ClaimVerifier, ClaimStatus } from './domain/verifiers/types';
export type { Claim } from './domain/claims';
export { CdslErrorCode } from './domain/errors';
export { createOcctRuntime } from './adapters/occt/workerRuntime';
export type { OcctRuntimeOptions } from './adapters/occt/workerRuntime';
export { OCCT_OPERATION_IDS } from './adapters/occt/operationIds';
export { encodeGlb } from './adapters/artifacts/glbEncoder';
export { renderPng, renderReviewPng } from './adapters/artifacts/pngRenderer';
export { createFsPublisher } from './adapters/artifacts/fsPublisher';
export { cadgenLeaseMigration, cadgenMigrations } from './migrations';
export { createSqliteTaskRepository } from './adapters/store/sqliteTaskRepository';
export { createFsTaskArtifacts } from './adapters/store/fsTaskArtifacts';
export { createGatewayModel, endpointOf } from './adapters/llm/gatewayModel';
export { createGenerationService } from './application/protocol/service';
export type { GenerationService, NewTaskInput } from './application/protocol/service';
export { recoverGeneration } from './application/protocol/recovery';
export type { RecoveryReport } from './application/protocol/recovery';
export type { GenerationDeps, CrashPoint } from './application/protocol/deps';
export type { EventSink, ModelPort, TaskSnapshot } from './application/protocol/ports';
export type { TaskRecord, RequirementsContract } from './domain/protocol/task';
export { TASK_STATES } from './domain/protocol/states';
export type { TaskState } from './domain/protocol/states';
export { ProtocolErrorCode } from './domain/protocol/errors';
export { checkModel, conformanceKey, LATEST_CONFORMANCE, requireConformantModel } from './application/protocol/capabilities';
export type { ConformanceKey, GenerationConformance, OutputModeOutcome } from './application/protocol/conformance';
export type { OutputMode } from './application/protocol/ports';
export { composeDrawing } from './application/composeDrawing';
export type { DrawingRequest, DrawingResult } from './application/composeDrawing';
export type { DrawingSheetWriter } from './ports/drawingSheetWriter';
export type { SheetFormat, SheetLanguage } from './domain/drawingSheet/sheetFrame';
export type { ClaimDimensionEntry, UndimensionedReason } from './domain/drawingSheet/claimDimensions';
