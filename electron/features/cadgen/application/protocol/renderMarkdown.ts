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
