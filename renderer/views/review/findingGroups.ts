import type { FindingView, RunDetail } from '../../store/reviewSlice';
import type { Box } from './viewer/viewGeometry';

type ChecklistItem = RunDetail['checklistItems'][number];

/** A rule (checklist item) and its findings, as the findings list groups them. */
export interface FindingGroup {
  ruleId: string;
  description: string;
  findings: FindingView[];
  /** Findings "approve all" would approve: proposed and not hypotheses. */
  approvable: FindingView[];
  /** Findings "dismiss all" would dismiss: neither written nor already dismissed. */
  dismissable: FindingView[];
}

/**
 * The findings grouped by rule, groups in the order their first finding appears (the marker
 * numbers follow the frames), findings in their own order inside a group.
 */
export function groupByRule(findings: FindingView[], items: ChecklistItem[]): FindingGroup[] {
  const describe = new Map(items.map((i) => [i.id, i.description]));
  const groups = new Map<string, FindingGroup>();
  for (const finding of findings) {
    let group = groups.get(finding.checklistItemId);
    if (!group) {
      group = { ruleId: finding.checklistItemId, description: describe.get(finding.checklistItemId) ?? '', findings: [], approvable: [], dismissable: [] };
      groups.set(finding.checklistItemId, group);
    }
    group.findings.push(finding);
    const state = finding.annotation.state;
    if (state === 'proposed' && !finding.hypothesis) group.approvable.push(finding);
    if (state !== 'written' && state !== 'rejected') group.dismissable.push(finding);
  }
  return [...groups.values()];
}

const pointBox = (p: { x: number; y: number }): Box => ({ minX: p.x, minY: p.y, maxX: p.x, maxY: p.y });
const union = (a: Box, b: Box): Box => ({ minX: Math.min(a.minX, b.minX), minY: Math.min(a.minY, b.minY), maxX: Math.max(a.maxX, b.maxX), maxY: Math.max(a.maxY, b.maxY) });
type Location = FindingView['location'];
const locationBox = (l: Location): Box => (l.kind === 'bbox' ? l.bbox : pointBox(l.point));

/**
 * Every place a finding points at: its location, and the further `locations` a finding of one rule
 * on one sheet may carry (tolerated before the contract has them), plus its arrow tip.
 */
export function findingPlaces(finding: FindingView): Box[] {
  const more = (finding as FindingView & { locations?: unknown }).locations;
  const extra = Array.isArray(more) ? (more as Location[]).filter((l) => l && (l.kind === 'bbox' || l.kind === 'point')).map(locationBox) : [];
  return [locationBox(finding.location), ...extra, pointBox(finding.annotation.anchor)];
}

/**
 * The box "zoom to finding" fits: everything the finding points at with room around it, at least a
 * half the frame (a point alone would zoom to nothing; less loses the context around it), centred on the finding, never larger
 * than the frame.
 */
export function findingFocusBox(finding: FindingView, frame: Box): Box {
  const places = findingPlaces(finding).reduce(union);
  const frameW = frame.maxX - frame.minX;
  const frameH = frame.maxY - frame.minY;
  const w = Math.min(Math.max((places.maxX - places.minX) * 1.6, frameW / 2), frameW);
  const h = Math.min(Math.max((places.maxY - places.minY) * 1.6, frameH / 2), frameH);
  const cx = (places.minX + places.maxX) / 2;
  const cy = (places.minY + places.maxY) / 2;
  return { minX: cx - w / 2, minY: cy - h / 2, maxX: cx + w / 2, maxY: cy + h / 2 };
}

/** Roving focus: the row the arrow keys, Home and End move to from `index` among `count` rows (null: not a move key). */
export function rovingTarget(key: string, index: number, count: number): number | null {
  if (count === 0) return null;
  if (key === 'ArrowDown') return Math.min(index + 1, count - 1);
  if (key === 'ArrowUp') return Math.max(index - 1, 0);
  if (key === 'Home') return 0;
  if (key === 'End') return count - 1;
  return null;
}
