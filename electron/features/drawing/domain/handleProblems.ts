import type { DxfDocument, DxfEntity } from './model';
import type { DxfProblem } from './tags';
import { TagView } from './tagView';

/** How many example handles a problem message names (the rest are counted). */
const EXAMPLES = 5;

/** Every entity once: layouts, blocks and attributes (*Model_Space/*Paper_Space block entities are also layout entities). */
function allEntities(doc: DxfDocument): DxfEntity[] {
  const seen = new Set<DxfEntity>();
  const out: DxfEntity[] = [];
  const walk = (entities: DxfEntity[]): void => {
    for (const entity of entities) {
      if (seen.has(entity)) continue;
      seen.add(entity);
      out.push(entity);
      if (entity.geometry.kind === 'insert' && entity.geometry.attribs.length > 0) walk(entity.geometry.attribs);
    }
  };
  for (const layout of doc.layouts) walk(layout.entities);
  for (const block of doc.blocks.values()) walk(block.entities);
  return out;
}

/**
 * Handle damage a reviewer should know about, because findings and written annotations cite
 * entities by handle: entities whose handle group (5) is present but empty, and handles used by
 * more than one entity (get_entity returns only one of them).
 */
export function handleProblems(doc: DxfDocument): DxfProblem[] {
  let empty = 0;
  const owners = new Map<string, number>();
  for (const entity of allEntities(doc)) {
    if (entity.handle) {
      const key = entity.handle.toUpperCase();
      owners.set(key, (owners.get(key) ?? 0) + 1);
    }
    else if (new TagView(doc.tags, entity.tagStart, entity.tagEnd).indexOf(5) >= 0) empty++;
  }
  const problems: DxfProblem[] = [];
  if (empty > 0) problems.push({ kind: 'empty_handle', message: `${empty} entit${empty === 1 ? 'y has' : 'ies have'} an empty handle (group 5 without a value); findings cite them by geometry instead` });
  const duplicates = [...owners].filter(([, n]) => n > 1);
  if (duplicates.length > 0) {
    const names = duplicates.slice(0, EXAMPLES).map(([h, n]) => `${h} ×${n}`).join(', ');
    problems.push({ kind: 'duplicate_handle', message: `${duplicates.length} handle${duplicates.length === 1 ? ' is' : 's are'} used by more than one entity (${names}${duplicates.length > EXAMPLES ? ', …' : ''}); only the first is reachable by handle` });
  }
  return problems;
}
