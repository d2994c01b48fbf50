import type { RequirementsContract } from '../../domain/protocol/task';

/** requirements.md: a read-only rendering of the contract (never parsed back). */
export function renderRequirementsMd(contract: RequirementsContract): string {
  const lines = ['# Requirements', ''];
  for (const r of contract.requirements) {
    lines.push(`- **${r.requirement_id}** ${r.statement} _(sources: ${r.source_ids.join(', ')})_`);
    for (const a of r.assumptions) lines.push(`  - assumption: ${a}`);
  }
  return `${lines.join('\n')}\n`;
}

/** completion.md: the acceptance checklist, one box per claim. */
export function renderCompletionMd(contract: RequirementsContract): string {
  const lines = ['# Completion checklist', ''];
  for (const c of contract.claims) lines.push(`- [ ] ${c.claim_id} (${c.requirement_id}) ${c.claim_kind} ${JSON.stringify(c.expected)}${c.deterministic ? '' : ' — visual, reviewer judgement'}`);
  return `${lines.join('\n')}\n`;
}
