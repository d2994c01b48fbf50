import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { findBundledResource } from './bundledResources';
import { AppError } from '../../../shared/errors';
import type { IpcEvents } from '../../../shared/ipc/channels';
import {
  cadgenChannels,
  MAX_ARTIFACT_TRANSFER_BYTES,
  type ArtifactKind,
  type CadgenBuildArtifacts,
  type CadgenBuildResult,
  type CdslExample,
} from '../../../shared/ipc/contracts/cadgen';
import {
  buildDocument,
  createCdslCatalog,
  encodeGlb,
  OCCT_OPERATION_IDS,
  parseClaims,
  renderPng,
  type ArtifactManifest,
  type ArtifactPublisher,
  type BuildReport,
  type CadRuntime,
  type Claim,
  type CdslDocument,
  type ProjectionMethod,
  viewsFor,
} from '../../features/cadgen/index';
import type { ArtifactStore } from '../../platform/artifacts/types';
import type { EventBus } from '../../platform/events/eventBus';
import type { HandlerTable } from '../../platform/ipc/router';
import type { Logger } from '../../platform/log/types';

export interface CadgenHandlerOptions {
  events: EventBus<IpcEvents>;
  /** The OCCT worker runtime; it starts its worker on the first build and is disposed by the owner. */
  runtime: CadRuntime;
  /** resources/examples/cdsl of this installation (see findBundledExamples); null when missing. */
  examplesDir: string | null;
  /** Timestamps of artifact manifests. */
  clock: () => Date;
  /** Cap on cadgenGetArtifact (tests lower it); default MAX_ARTIFACT_TRANSFER_BYTES. */
  maxTransferBytes?: number;
}

/** Build phases reported as `progress` events, in order. */
export const BUILD_PHASES = ['validate', 'kernel', 'build', 'artifacts', 'store', 'done'] as const;
type BuildPhase = (typeof BUILD_PHASES)[number];

const MEDIA_TYPES: Record<ArtifactKind, string> = {
  glb: 'model/gltf-binary',
  step: 'model/step',
  svg: 'image/svg+xml',
  png: 'image/png',
  measurements: 'application/json',
};

// buildDocument publishes artifacts only when given an output folder; the store publisher names
// everything by content, so this label is never a path on disk.
const STORE_OUT_DIR = 'artifact-store';

const sha256 = (bytes: Uint8Array | string): string => createHash('sha256').update(bytes).digest('hex');

/**
 * Walks up from the module at `moduleUrl` (import.meta.url of a bundle in dist/node or dist/electron, or the packaged app.asar, whose
 * parent holds the extraResources folder) to the folder that contains resources/examples/cdsl.
 */
export function findBundledExamples(moduleUrl: string | URL): string | null {
  return findBundledResource(moduleUrl, 'resources/examples/cdsl');
}

function parseJsonText(text: string, source: 'document' | 'claims'): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    const message = `the ${source} is not valid JSON: ${(error as Error).message}`;
    throw new AppError('CDSL_SCHEMA_INVALID', message, { data: { source, issues: [{ path: '/', message }] } });
  }
}

/** Runs a validation step and tags its typed error with which text it was about. */
function tagged<T>(source: 'document' | 'claims', run: () => T): T {
  try {
    return run();
  } catch (error) {
    if (!(error instanceof AppError) || !error.code.startsWith('CDSL_')) throw error;
    throw new AppError(error.code, error.message, { retryable: error.retryable, data: { ...error.data, source } });
  }
}

/** Does `bytes` hold what `kind` promises? Keeps the channel from serving unrelated artifacts. */
export function contentMatchesKind(bytes: Uint8Array, kind: ArtifactKind): boolean {
  const head = new TextDecoder().decode(bytes.subarray(0, 256)).replace(/^\uFEFF/, '').trimStart();
  switch (kind) {
    case 'glb':
      return head.startsWith('glTF');
    case 'png':
      return bytes.length >= 8 && [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a].every((b, i) => bytes[i] === b);
    case 'step':
      return head.startsWith('ISO-10303-21;');
    case 'svg':
      return head.startsWith('<svg') || (head.startsWith('<?xml') && head.includes('<svg'));
    case 'measurements':
      try {
        const value = JSON.parse(new TextDecoder().decode(bytes)) as unknown;
        return typeof value === 'object' && value !== null && 'measurements' in value;
      } catch {
        return false;
      }
  }
}

/**
 * ArtifactPublisher over the content-addressed store: every file (and the manifest) is put by
 * content, so the manifest's sha256 values are the artifact ids the renderer asks for.
 */
function createStorePublisher(store: ArtifactStore, clock: () => Date, onStart: () => void): ArtifactPublisher & { manifestId(): string | null } {
  let manifestId: string | null = null;
  return {
    manifestId: () => manifestId,
    async publish(_outDir, files, meta) {
      onStart();
      const stored: ArtifactManifest['files'] = [];
      for (const file of files) {
        const ref = await store.put(file.bytes, { mediaType: mediaTypeOfName(file.name) });
        stored.push({ name: file.name, bytes: ref.size, sha256: ref.sha256 });
      }
      const manifest: ArtifactManifest = {
        document_name: meta.document_name,
        input_sha256: sha256(meta.input_text),
        engine_version: meta.engine_version,
        created_at: clock().toISOString(),
        files: stored,
      };
      manifestId = (await store.put(new TextEncoder().encode(JSON.stringify(manifest, null, 2)), { mediaType: 'application/json' })).sha256;
      return manifest;
    },
  };
}

function mediaTypeOfName(name: string): string {
  if (name.endsWith('.glb')) return MEDIA_TYPES.glb;
  if (name.endsWith('.step')) return MEDIA_TYPES.step;
  if (name.endsWith('.svg')) return MEDIA_TYPES.svg;
  if (name.endsWith('.png')) return MEDIA_TYPES.png;
  return 'application/json';
}

function artifactIds(manifest: ArtifactManifest, manifestId: string, method: ProjectionMethod): CadgenBuildArtifacts {
  const byName = new Map(manifest.files.map((f) => [f.name, f]));
  const id = (name: string): string => {
    const file = byName.get(name);
    if (!file) throw new AppError('CDSL_ARTIFACT_WRITE_FAILED', `the build published no ${name}`, { data: { name } });
    return file.sha256;
  };
  const views = viewsFor(method).map((view) => ({ view, svg: id(`view-${view}.svg`), png: id(`view-${view}.png`) }));
  return { glb: id('model.glb'), step: id('model.step'), measurements: id('measurements.json'), views, projectionMethod: method, manifest: manifestId, glbBytes: byName.get('model.glb')?.bytes ?? 0 };
}

function toResult(report: BuildReport, claims: Claim[], artifacts: CadgenBuildArtifacts | null): CadgenBuildResult {
  const descriptions = new Map(claims.map((c) => [c.id, c.description]));
  return {
    ok: report.ok,
    documentName: report.document_name,
    engineVersion: report.engine_version,
    features: report.features.map((f) => ({ ...f })),
    measurements: report.measurements ? { ...report.measurements, bbox: { min: [...report.measurements.bbox.min], max: [...report.measurements.bbox.max] } } : null,
    topology: report.topology,
    claims: report.claims.map((c) => {
      const description = descriptions.get(c.id);
      return { id: c.id, kind: c.kind, deterministic: c.deterministic, status: c.status, message: c.message, evidence: c.evidence, ...(description ? { description } : {}) };
    }),
    artifacts,
    // Optional phases that did not run arrive as undefined keys after the worker's structured clone.
    timingsMs: Object.fromEntries(Object.entries(report.timings_ms).filter((e): e is [string, number] => typeof e[1] === 'number')),
  };
}

/** Handlers of the Generate area: examples, validation, builds on the OCCT worker, artifacts. */
export function createCadgenHandlers(platform: { artifacts: ArtifactStore; log: Logger }, options: CadgenHandlerOptions): HandlerTable<typeof cadgenChannels> {
  const catalog = createCdslCatalog(OCCT_OPERATION_IDS);
  const log = platform.log.child({ slice: 'cadgen' });
  const maxTransferBytes = options.maxTransferBytes ?? MAX_ARTIFACT_TRANSFER_BYTES;

  const validateInputs = (documentJson: string, claimsJson: string | undefined): { document: CdslDocument; claims: Claim[] } => {
    const document = tagged('document', () => catalog.validateDocument(parseJsonText(documentJson, 'document')));
    const claims = claimsJson === undefined ? [] : tagged('claims', () => parseClaims(catalog, parseJsonText(claimsJson, 'claims')));
    return { document, claims };
  };

  return {
    async cadgenListExamples() {
      const dir = options.examplesDir;
      if (!dir) throw new AppError('CDSL_EXAMPLE_NOT_FOUND', 'The bundled CDSL examples (resources/examples/cdsl) are missing from this installation.');
      const names = (await readdir(dir)).filter((n) => n.endsWith('.json') && !n.endsWith('.claims.json')).sort();
      const examples: CdslExample[] = [];
      for (const file of names) {
        const name = file.slice(0, -'.json'.length);
        const documentJson = await readFile(path.join(dir, file), 'utf8');
        const claimsFile = path.join(dir, `${name}.claims.json`);
        const claimsJson = existsSync(claimsFile) ? await readFile(claimsFile, 'utf8') : null;
        const document = tagged('document', () => catalog.validateDocument(parseJsonText(documentJson, 'document')));
        examples.push({ name, documentJson, claimsJson, featureCount: document.features.length, operations: document.features.map((f) => f.atomic_id) });
      }
      return examples;
    },

    cadgenValidate({ documentJson, claimsJson }) {
      const { document, claims } = validateInputs(documentJson, claimsJson);
      return { name: document.name, features: document.features.map((f) => ({ id: f.id, atomic_id: f.atomic_id })), claimCount: claims.length };
    },

    async cadgenBuild({ documentJson, claimsJson, taskId, projectionMethod }) {
      const progress = (phase: BuildPhase): void => {
        options.events.emit('progress', { taskId, phase, done: BUILD_PHASES.indexOf(phase), total: BUILD_PHASES.length - 1 });
      };
      progress('validate');
      const { document, claims } = validateInputs(documentJson, claimsJson);
      progress('kernel');
      await options.runtime.warmUp();
      progress('build');
      const publisher = createStorePublisher(platform.artifacts, options.clock, () => progress('store'));
      const encoders = {
        glb: (...args: Parameters<typeof encodeGlb>) => {
          progress('artifacts');
          return encodeGlb(...args);
        },
        png: renderPng,
      };
      const report = await buildDocument({ catalog, runtime: options.runtime, publisher, encoders }, { document, claims, stage: 'final', outDir: STORE_OUT_DIR, ...(projectionMethod ? { projectionMethod } : {}) });
      const manifestId = publisher.manifestId();
      const artifacts = report.artifacts && manifestId && report.projection_method ? artifactIds(report.artifacts, manifestId, report.projection_method) : null;
      progress('done');
      log.info('cdsl build', { document: document.name, ok: report.ok, features: document.features.length, claims: claims.length, timings_ms: report.timings_ms });
      return toResult(report, claims, artifacts);
    },

    async cadgenGetArtifact({ id, kind }) {
      const ref = await platform.artifacts.verify(id);
      if (ref.size > maxTransferBytes) {
        throw new AppError('CDSL_ARTIFACT_TOO_LARGE', `The artifact is ${ref.size} bytes; at most ${maxTransferBytes} bytes can be transferred.`, { data: { size: ref.size, max: maxTransferBytes } });
      }
      const bytes = await platform.artifacts.read(id);
      if (!contentMatchesKind(bytes, kind)) throw new AppError('CDSL_ARTIFACT_KIND_MISMATCH', `Artifact ${id} is not a ${kind} file.`, { data: { id, kind } });
      return { id, kind, mediaType: MEDIA_TYPES[kind], size: bytes.length, base64: bytes.toString('base64') };
    },
  };
}
