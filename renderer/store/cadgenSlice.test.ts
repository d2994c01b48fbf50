import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Result } from '../../shared/errors';
import type { AppBridge } from '../../shared/ipc/channels';
import type { CadgenBuildResult } from '../../shared/ipc/contracts/cadgen';
import { createAppStore } from './appStore';

type Progress = { taskId: string; phase: string; done: number; total: number };

const buildResult: CadgenBuildResult = {
  ok: true,
  documentName: 'flange',
  engineVersion: 'test',
  features: [{ id: 'F1', atomic_id: 'extrude', status: 'built' }],
  measurements: null,
  topology: null,
  claims: [],
  artifacts: null,
  timingsMs: {},
};

/**
 * A bridge whose cadgenBuild replays `events` (own ones tagged with the caller's task id,
 * foreign ones with other ids) and records the state the store showed after each one.
 */
function replayingBridge(events: { own: boolean; phase: string; done: number }[], seen: Progress[], read: () => unknown) {
  const listeners = new Set<(payload: Progress) => void>();
  const bridge = {
    cadgenValidate: async () => ({ ok: true, value: { name: 'flange', features: [{ id: 'F1', atomic_id: 'extrude' }], claimCount: 0 } }),
    cadgenBuild: async (input: { taskId: string }): Promise<Result<CadgenBuildResult>> => {
      for (const event of events) {
        for (const listener of listeners) listener({ taskId: event.own ? input.taskId : `other-${event.phase}`, phase: event.phase, done: event.done, total: 5 });
        seen.push(read() as Progress);
      }
      return { ok: true, value: buildResult };
    },
    on: (event: string, listener: (payload: Progress) => void) => {
      if (event === 'progress') listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  return { bridge: bridge as unknown as AppBridge, listeners };
}

describe('cadgen store slice', () => {
  it('follows only its own build progress, whatever other tasks report meanwhile, and ends done', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ own: fc.boolean(), phase: fc.constantFrom('validate', 'kernel', 'build', 'artifacts', 'store'), done: fc.integer({ min: 0, max: 5 }) }), { maxLength: 30 }),
        async (events) => {
          const seen: Progress[] = [];
          let store!: ReturnType<typeof createAppStore>;
          const { bridge, listeners } = replayingBridge(events, seen, () => store.getState().cadgenBuild);
          store = createAppStore(bridge, 'en');
          await store.getState().openCadgenText({ name: 'flange', origin: 'file', documentJson: '{}', claimsJson: null });
          // Other slices may keep their own progress subscriptions; only the build's must end with it.
          const subscribedBefore = listeners.size;
          await store.getState().buildCadgenDocument();

          let expected = { phase: 'validate', done: 0 };
          events.forEach((event, index) => {
            if (event.own) expected = { phase: event.phase, done: event.done };
            expect(seen[index]).toMatchObject({ status: 'running', ...expected });
          });
          expect(store.getState().cadgenBuild).toEqual({ status: 'done', result: buildResult });
          // The progress subscription ends with the build.
          expect(listeners.size).toBe(subscribedBefore);
        },
      ),
      { numRuns: 100 },
    );
  });

  it('keeps the typed validation error of an invalid document and forgets the previous build', async () => {
    const error = { code: 'CDSL_SCHEMA_INVALID', message: '1 schema issue(s)', retryable: false, data: { source: 'document', issues: [{ path: '/features/F1/params', message: 'must be object' }] } };
    const bridge = { cadgenValidate: async () => ({ ok: false, error }), on: () => () => {} } as unknown as AppBridge;
    const store = createAppStore(bridge, 'en');
    store.setState({ cadgenBuild: { status: 'done', result: buildResult } });
    await store.getState().openCadgenText({ name: 'broken', origin: 'file', documentJson: '{"x":1}', claimsJson: null });
    expect(store.getState().cadgenValidation).toEqual({ status: 'invalid', error });
    expect(store.getState().cadgenBuild).toEqual({ status: 'idle' });
  });

  it('reports a failed artifact fetch in the banner and returns nothing', async () => {
    const error = { code: 'STORE_ARTIFACT_NOT_FOUND', message: 'gone', retryable: false };
    const bridge = { cadgenGetArtifact: async () => ({ ok: false, error }), on: () => () => {} } as unknown as AppBridge;
    const store = createAppStore(bridge, 'en');
    expect(await store.getState().fetchCadgenArtifact('a'.repeat(64), 'glb')).toBeNull();
    expect(store.getState().banner.map((b) => b.error.code)).toEqual(['STORE_ARTIFACT_NOT_FOUND']);
  });

  it('decodes artifact bytes from base64 exactly', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 300 }), async (bytes) => {
        const base64 = btoa(String.fromCharCode(...bytes));
        const bridge = { cadgenGetArtifact: async () => ({ ok: true, value: { id: 'a'.repeat(64), kind: 'glb', mediaType: 'model/gltf-binary', size: bytes.length, base64 } }), on: () => () => {} } as unknown as AppBridge;
        const store = createAppStore(bridge, 'en');
        expect(await store.getState().fetchCadgenArtifact('a'.repeat(64), 'glb')).toEqual(bytes);
      }),
      { numRuns: 100 },
    );
  });
});
