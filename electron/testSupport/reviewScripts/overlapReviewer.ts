import type { CapturedRequest, ScriptStep } from '../scriptedProvider/index';

/**
 * A scripted reviewer model for the bundled sample: it submits one LLM-002 finding (overlapping
 * annotation) on frame E9 and none elsewhere, always through the forced submit_findings tool.
 */
export function overlapReviewer(request: CapturedRequest): ScriptStep {
  const frameId = /frameId \\"([^\\"]+)\\"/.exec(JSON.stringify(request.body))?.[1] ?? '';
  const findings =
    frameId === 'E9'
      ? [{ checklistItemId: 'LLM-002', message: '注释与尺寸线重叠', location: { kind: 'point', x: 600, y: 150 }, evidenceRefs: ['screenshot:E9/overview'], annotationText: '注释重叠' }]
      : [];
  return { toolCall: { name: 'submit_findings', arguments: { frameId, findings } } };
}
