import type { AppErrorData } from '../../shared/errors';
import type { ArtifactKind, CadgenBuildResult, CdslExample, CdslValidation, ProjectionMethodName } from '../../shared/ipc/contracts/cadgen';
import { base64Bytes } from '../shell/saveFile';
import type { ShellSlice } from './shellSlice';
import type { SliceContext } from './types';

/** The CDSL document currently open in the Generate area, with where it came from. */
export interface OpenCdslDocument {
  name: string;
  origin: 'example' | 'file';
  documentJson: string;
  claimsJson: string | null;
}

export type CdslValidationState =
  | { status: 'idle' }
  | { status: 'checking' }
  | { status: 'valid'; result: CdslValidation }
  | { status: 'invalid'; error: AppErrorData };

export type CdslBuildState =
  | { status: 'idle' }
  | { status: 'running'; taskId: string; phase: string; done: number; total: number }
  | { status: 'done'; result: CadgenBuildResult }
  | { status: 'failed'; error: AppErrorData };

/** Generate area: examples, the open document, its validation and the last build. */
export interface CadgenSlice {
  cadgenExamples: CdslExample[] | null;
  cadgenDocument: OpenCdslDocument | null;
  cadgenValidation: CdslValidationState;
  cadgenBuild: CdslBuildState;
  /** How the next build lays out its orthographic drawings (first angle by default, as GB/T 4458.1). */
  cadgenProjectionMethod: ProjectionMethodName;
  setCadgenProjectionMethod(method: ProjectionMethodName): void;
  loadCadgenExamples(): Promise<void>;
  /** Opens a bundled example and validates it. */
  openCadgenExample(name: string): Promise<void>;
  /** Opens document (and optional claims) text from a picked or dropped file and validates it. */
  openCadgenText(document: OpenCdslDocument): Promise<void>;
  /** Builds the open document; progress events update `cadgenBuild` while it runs. */
  buildCadgenDocument(): Promise<void>;
  /** One artifact's bytes, or null after reporting the typed error to the banner. */
  fetchCadgenArtifact(id: string, kind: ArtifactKind): Promise<Uint8Array | null>;
}

export function createCadgenSlice<S extends ShellSlice & CadgenSlice>({ set, get, bridge }: SliceContext<S>): CadgenSlice {
  let nextTask = 1;
  const patch = (partial: Partial<CadgenSlice>): void => set(partial as Partial<S>);

  const validateOpen = async (): Promise<void> => {
    const open = get().cadgenDocument;
    if (!open) return;
    patch({ cadgenValidation: { status: 'checking' }, cadgenBuild: { status: 'idle' } });
    const result = await bridge.cadgenValidate({ documentJson: open.documentJson, ...(open.claimsJson ? { claimsJson: open.claimsJson } : {}) });
    // A newer document may have been opened while this one was being checked.
    if (get().cadgenDocument !== open) return;
    patch({ cadgenValidation: result.ok ? { status: 'valid', result: result.value } : { status: 'invalid', error: result.error } });
  };

  return {
    cadgenExamples: null,
    cadgenDocument: null,
    cadgenValidation: { status: 'idle' },
    cadgenBuild: { status: 'idle' },
    cadgenProjectionMethod: 'first_angle',

    setCadgenProjectionMethod(method) {
      patch({ cadgenProjectionMethod: method });
    },

    async loadCadgenExamples() {
      const examples = get().unwrap(await bridge.cadgenListExamples({}));
      if (examples) patch({ cadgenExamples: examples });
    },

    async openCadgenExample(name) {
      const example = get().cadgenExamples?.find((e) => e.name === name);
      if (!example) return;
      patch({ cadgenDocument: { name: example.name, origin: 'example', documentJson: example.documentJson, claimsJson: example.claimsJson } });
      await validateOpen();
    },

    async openCadgenText(document) {
      patch({ cadgenDocument: document });
      await validateOpen();
    },

    async buildCadgenDocument() {
      const open = get().cadgenDocument;
      if (!open || get().cadgenBuild.status === 'running') return;
      const taskId = `cdsl-${Date.now().toString(36)}-${nextTask++}`;
      patch({ cadgenBuild: { status: 'running', taskId, phase: 'validate', done: 0, total: 1 } });
      const unsubscribe = bridge.on('progress', (event) => {
        const current = get().cadgenBuild;
        if (event.taskId !== taskId || current.status !== 'running') return;
        patch({ cadgenBuild: { ...current, phase: event.phase, done: event.done, total: event.total } });
      });
      try {
        const result = await bridge.cadgenBuild({ documentJson: open.documentJson, taskId, projectionMethod: get().cadgenProjectionMethod, ...(open.claimsJson ? { claimsJson: open.claimsJson } : {}) });
        if (get().cadgenDocument !== open) return;
        patch({ cadgenBuild: result.ok ? { status: 'done', result: result.value } : { status: 'failed', error: result.error } });
      } finally {
        unsubscribe();
      }
    },

    async fetchCadgenArtifact(id, kind) {
      const artifact = get().unwrap(await bridge.cadgenGetArtifact({ id, kind }));
      return artifact ? base64Bytes(artifact.base64) : null;
    },
  };
}
