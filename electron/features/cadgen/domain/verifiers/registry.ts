import { openSchemaPaths } from '../closedSchema';
import { coaxial, coplanar, visual } from './alignmentVerifiers';
import { faceAngleDeg } from './angleVerifiers';
import { bboxDimensionMm, singleConnectedBody, solidCountEquals, volumeMm3 } from './bodyVerifiers';
import { chamferSize, filletRadius } from './blendVerifiers';
import { circularHolePattern, cylindricalBore, throughCylindricalBore } from './boreVerifiers';
import { holeCentreDistance, holeSet, linearHolePattern, rectangularHoleLayout } from './holeVerifiers';
import { pocket, throughOpening } from './openingVerifiers';
import { wallThickness } from './wallVerifiers';
import type { ClaimVerifier, RequiredArtifact } from './types';

/** Artifacts this engine produces for every build, so verifiers needing them can run. */
export const PRODUCIBLE_ARTIFACTS: readonly RequiredArtifact[] = ['topology', 'measurements', 'renders'];

export const ALL_VERIFIERS: readonly ClaimVerifier[] = [
  solidCountEquals,
  singleConnectedBody,
  bboxDimensionMm,
  volumeMm3,
  cylindricalBore,
  throughCylindricalBore,
  circularHolePattern,
  coaxial,
  coplanar,
  visual,
  holeSet,
  linearHolePattern,
  rectangularHoleLayout,
  holeCentreDistance,
  filletRadius,
  chamferSize,
  faceAngleDeg,
  pocket,
  throughOpening,
  wallThickness,
];

/** Problems that make a verifier list unusable: duplicate kinds, open schemas, unproducible artifacts. */
export function verifierIntegrityProblems(verifiers: readonly ClaimVerifier[]): string[] {
  const problems: string[] = [];
  const kinds = new Set<string>();
  for (const verifier of verifiers) {
    if (kinds.has(verifier.kind)) problems.push(`${verifier.kind}: duplicate claim kind`);
    kinds.add(verifier.kind);
    for (const path of openSchemaPaths(verifier.expected_schema)) problems.push(`${verifier.kind}: expected_schema ${path}`);
    for (const artifact of verifier.required_artifacts) if (!PRODUCIBLE_ARTIFACTS.includes(artifact)) problems.push(`${verifier.kind}: artifact ${artifact} cannot be produced`);
    if (!verifier.pending_rule?.trim()) problems.push(`${verifier.kind}: no pending_rule (how pending is told from fail)`);
    if (typeof verifier.evaluate !== 'function') problems.push(`${verifier.kind}: no evaluate function`);
  }
  return problems;
}
