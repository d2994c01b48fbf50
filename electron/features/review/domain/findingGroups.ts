import { MAX_GROUP_LOCATIONS, type FindingDraft } from './finding';
import { say, type ReviewLocale } from './rules/context';

/** Evidence refs a finding may carry (findingSchema). */
const MAX_EVIDENCE_REFS = 200;

/**
 * Folds the rule findings of one checklist item on one sheet into one finding with every place it
 * was seen: a sheet whose 22 texts share one off-series height is one finding "×22" with 22
 * locations, not 22 findings and 22 overlapping markers. The group keeps the first finding's
 * place as its marker, lists all places in `locations`, and its id is stable (the sorted union of
 * the members' handles, or their places). AI findings and hypotheses are never grouped: each is a
 * separate judgement the user confirms on its own. Order of the result: first appearance.
 */
export function groupRuleDrafts(drafts: readonly FindingDraft[], locale: ReviewLocale, annotationLocale: ReviewLocale): FindingDraft[] {
  const groups = new Map<string, FindingDraft[]>();
  const out: (FindingDraft | FindingDraft[])[] = [];
  for (const draft of drafts) {
    if (draft.source !== 'rule' || draft.hypothesis) {
      out.push(draft);
      continue;
    }
    const key = `${draft.frameId ?? '<drawing>'}|${draft.checklistItemId}`;
    const members = groups.get(key);
    if (members) members.push(draft);
    else {
      const fresh = [draft];
      groups.set(key, fresh);
      out.push(fresh);
    }
  }
  return out.map((entry) => (Array.isArray(entry) ? mergeGroup(entry, locale, annotationLocale) : entry));
}

function mergeGroup(members: readonly FindingDraft[], locale: ReviewLocale, annotationLocale: ReviewLocale): FindingDraft {
  const first = members[0]!;
  if (members.length === 1) return first;
  const n = members.length;
  const handles = [...new Set(members.flatMap((m) => m.handles))];
  const refs = [...new Set(members.flatMap((m) => m.evidenceRefs))].slice(0, MAX_EVIDENCE_REFS);
  const others = members.slice(1, 4).map((m) => m.message);
  const more = n - 1 - others.length;
  const message = [
    say(locale, `本图共 ${n} 处：`, `${n} places on this sheet: `) + first.message,
    ...others.map((m) => `· ${m}`),
    ...(more > 0 ? [say(locale, `…另有 ${more} 处，见位置列表。`, `… and ${more} more (see the locations).`)] : []),
  ]
    .join(' ')
    .slice(0, 2000);
  return {
    ...first,
    message,
    evidenceRefs: refs,
    handles,
    // Members anchored on no entity (title-block fields, sheet corners) are told apart by their
    // discriminators; the group's id must cover them all so it is stable and unique per sheet.
    discriminator: `group:${members.map((m) => m.discriminator ?? '').sort().join(',')}`,
    annotationText: `${first.annotationText} ${say(annotationLocale, `（共 ${n} 处）`, `(×${n})`)}`.slice(0, 400),
    count: n,
    locations: members.slice(0, MAX_GROUP_LOCATIONS).map((m) => m.location),
  };
}
