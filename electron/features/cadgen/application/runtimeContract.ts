import { cdslError, CdslErrorCode } from '../domain/errors';
import type { BuildOutcome, BuildOutputs, StepInspection } from '../ports/cadRuntime';

/**
 * What a build outcome breaks of the CadRuntime contract (empty when it keeps it): `ok` means
 * every feature built, a built body has a topology, and every output that was asked for is there.
 * Pure, so the rules are tested without a kernel.
 */
export function buildOutcomeViolations(outcome: BuildOutcome, outputs: BuildOutputs): string[] {
  const violations: string[] = [];
  if (typeof outcome.engine_version !== 'string' || !Array.isArray(outcome.features)) return ['the outcome lacks engine_version or features'];
  if (outcome.ok !== outcome.features.every((f) => f.status === 'built')) violations.push(`ok is ${String(outcome.ok)} but the features say otherwise`);
  if (!outcome.ok) return violations;
  if (outcome.features.length > 0 && !outcome.snapshot) violations.push('a built body without a topology snapshot');
  if (outcome.features.length === 0) return violations;
  if (outputs.step && typeof outcome.step !== 'string') violations.push('the STEP export that was asked for is missing');
  if (outputs.meshes && (!Array.isArray(outcome.meshes) || !Array.isArray(outcome.edge_lines))) violations.push('the meshes that were asked for are missing');
  if (outputs.projections && !Array.isArray(outcome.projections)) violations.push('the projections that were asked for are missing');
  return violations;
}

/** Throws CDSL_RUNTIME_CONTRACT_INVALID (not retryable) listing the violations of a build outcome. */
export function assertBuildOutcome(outcome: BuildOutcome, outputs: BuildOutputs): void {
  const violations = buildOutcomeViolations(outcome, outputs);
  if (violations.length > 0) throw cdslError(CdslErrorCode.runtimeContractInvalid, `the CAD runtime broke its contract: ${violations.join('; ')}`, { violations });
}

/** Throws CDSL_RUNTIME_CONTRACT_INVALID when a STEP inspection is not a count, a volume and a verdict. */
export function assertStepInspection(inspection: StepInspection): void {
  const ok = Number.isInteger(inspection?.solid_count) && inspection.solid_count >= 0 && Number.isFinite(inspection.volume_mm3) && typeof inspection.valid === 'boolean';
  if (!ok) throw cdslError(CdslErrorCode.runtimeContractInvalid, 'the CAD runtime broke its contract: the STEP inspection is not {solid_count, volume_mm3, valid}', { violations: ['malformed STEP inspection'] });
}
