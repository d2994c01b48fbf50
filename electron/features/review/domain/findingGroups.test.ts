import { describe, expect, it } from 'vitest';
import { completeFinding, findingSchema, type FindingDraft } from './finding';
import { groupRuleDrafts } from './findingGroups';

const draft = (item: string, frameId: string | null, x: number, extra: Partial<FindingDraft> = {}): FindingDraft => ({
  frameId,
  checklistItemId: item,
  severity: 'minor',
  source: 'rule',
  message: `${item} at ${x}`,
  evidenceRefs: ['tool:get_texts', `entity:H${x}`],
  location: { kind: 'point', point: { x, y: 0 } },
  handles: [`H${x}`],
  annotationText: `${item} note`,
  ...extra,
});

describe('grouping rule findings per rule and sheet', () => {
  it('folds 22 findings of one rule on one sheet into one finding with 22 places and a count', () => {
    const drafts = Array.from({ length: 22 }, (_, i) => draft('TXT-001', 'F1', i));
    const [group, ...rest] = groupRuleDrafts(drafts, 'en', 'zh-CN');
    expect(rest).toEqual([]);
    expect(group!.count).toBe(22);
    expect(group!.locations).toHaveLength(22);
    expect(group!.location).toEqual({ kind: 'point', point: { x: 0, y: 0 } });
    expect(group!.message).toMatch(/^22 places on this sheet: TXT-001 at 0/);
    expect(group!.annotationText).toBe('TXT-001 note （共 22 处）');
    const finding = findingSchema.parse(completeFinding(group!, 'f'.repeat(64), 10));
    expect(finding.count).toBe(22);
  });

  it('keeps rules, sheets and drawing-level findings apart and leaves a single finding as it was', () => {
    const drafts = [draft('TXT-001', 'F1', 1), draft('GEO-001', 'F1', 2), draft('TXT-001', 'F2', 3), draft('TXT-001', 'F1', 4), draft('GEO-003', null, 5)];
    const grouped = groupRuleDrafts(drafts, 'zh-CN', 'zh-CN');
    expect(grouped.map((d) => `${d.frameId}/${d.checklistItemId}/${d.count ?? 1}`)).toEqual(['F1/TXT-001/2', 'F1/GEO-001/1', 'F2/TXT-001/1', 'null/GEO-003/1']);
    expect(grouped[1]).toBe(drafts[1]);
    expect(grouped[0]!.message).toMatch(/^本图共 2 处：/);
  });

  it('never groups AI findings or hypotheses: each is its own judgement', () => {
    const drafts = [draft('LLM-001', 'F1', 1, { source: 'llm' }), draft('LLM-001', 'F1', 2, { source: 'llm' }), draft('TXT-001', 'F1', 3, { hypothesis: true }), draft('TXT-001', 'F1', 4, { hypothesis: true })];
    expect(groupRuleDrafts(drafts, 'en', 'en')).toEqual(drafts);
  });

  it('gives a group a stable id over its members whatever their order, distinct from each member', () => {
    const members = [draft('TB-001', 'F1', 1, { handles: [], discriminator: 'title' }), draft('TB-001', 'F1', 1, { handles: [], discriminator: 'scale' })];
    const id = (ds: FindingDraft[]): string => completeFinding(groupRuleDrafts(ds, 'en', 'en')[0]!, 'a'.repeat(64), 1).id;
    expect(id(members)).toBe(id([...members].reverse()));
    expect(id(members)).not.toBe(completeFinding(members[0]!, 'a'.repeat(64), 1).id);
  });
});
