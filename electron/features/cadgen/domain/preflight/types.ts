import type { CdslFeature } from '../document';
import type { CdslErrorCodeValue } from '../errors';
import type { EdgeInfo, FaceInfo, FeatureRefInfo, TopologySnapshot } from '../topology';

/** Entities the resolver found for a feature's selector/reference slots (server-injected). */
export interface ResolvedRefs {
  host_face?: FaceInfo;
  edges?: EdgeInfo[];
  faces?: FaceInfo[];
  source?: FeatureRefInfo;
}

export interface PreflightInput {
  feature: CdslFeature;
  /** Topology of the revision before this feature; null for the first feature. */
  previous: TopologySnapshot | null;
  resolved: ResolvedRefs;
}

/** A failure that has its own error code (e.g. CDSL_FEATURE_NO_EFFECT) instead of CDSL_PRECONDITION_FAILED. */
export interface PreflightProblem {
  code: CdslErrorCodeValue;
  message: string;
  data?: Record<string, unknown>;
}

/** A semantic check: returns the reason it fails (text → CDSL_PRECONDITION_FAILED), or null when the feature may be built. */
export type PreflightCheck = (input: PreflightInput) => string | PreflightProblem | null;
