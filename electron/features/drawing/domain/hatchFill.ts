import { PATTERN_LIMITS, clipPattern, patternWork, type ClippedPattern } from './hatchClip';
import { standardPatternLines } from './hatchPatternTable';
import type { HatchPattern, PatternLine } from './hatchPatterns';
import type { DxfDocument, DxfEntity, DxfGeometry } from './model';
import type { DxfProblem } from './tags';

type HatchGeometry = Extract<DxfGeometry, { kind: 'hatch' }>;

/** Most estimated work (pattern lines + dash pieces) one hatch may take; denser hatches are reported, not drawn. */
export const MAX_PATTERN_WORK = PATTERN_LIMITS.maxSegments;

/**
 * The pattern lines a HATCH is drawn with: its own stored lines (any pattern, custom ones too),
 * or, when it only names its pattern, the acad.pat/acadiso.pat definition ($MEASUREMENT picks).
 */
export function patternLinesOf(doc: DxfDocument, pattern: HatchPattern): PatternLine[] {
  if (pattern.lines.length > 0) return pattern.lines;
  const metric = doc.header.get('$MEASUREMENT')?.values[0]?.value.trim() !== '0';
  return standardPatternLines(pattern.name, pattern.scale, pattern.angle, metric, pattern.double);
}

/** Pattern segments of a hatch, or undefined when it is solid, has no usable pattern, or is too dense to draw. */
export function hatchPatternSegments(doc: DxfDocument, g: HatchGeometry): ClippedPattern | undefined {
  if (g.solid || g.gradient || !g.pattern) return undefined;
  const lines = patternLinesOf(doc, g.pattern);
  if (lines.length === 0 || patternWork(g.loops, lines) > MAX_PATTERN_WORK) return undefined;
  return clipPattern(g.loops, lines);
}

/**
 * Hatches a reviewer would see drawn wrong: patterns too dense to draw (a tiny scale over a large
 * area; drawn as their boundary instead) and patterns that are neither stored nor standard.
 */
export function hatchProblems(doc: DxfDocument): DxfProblem[] {
  const problems: DxfProblem[] = [];
  const seen = new Set<DxfEntity>(); // *Model_Space/*Paper_Space block entities are layout entities too
  const visit = (entity: DxfEntity): void => {
    if (seen.has(entity)) return;
    seen.add(entity);
    const g = entity.geometry;
    if (g.kind !== 'hatch' || g.solid || g.gradient || !g.pattern) return;
    const lines = patternLinesOf(doc, g.pattern);
    const where = `HATCH ${entity.handle || '(no handle)'} pattern ${g.pattern.name || '(unnamed)'}`;
    if (lines.length === 0) problems.push({ kind: 'hatch_pattern_unknown', message: `${where}: no pattern lines stored and not a standard acad.pat pattern; drawn as its boundary` });
    else if (patternWork(g.loops, lines) > MAX_PATTERN_WORK) problems.push({ kind: 'hatch_pattern_too_dense', message: `${where}: about ${Math.round(patternWork(g.loops, lines))} pattern pieces (more than ${MAX_PATTERN_WORK}); drawn as its boundary` });
  };
  for (const layout of doc.layouts) layout.entities.forEach(visit);
  for (const block of doc.blocks.values()) block.entities.forEach(visit);
  return problems;
}
