import { z } from 'zod';
import { countByType, insertCounts, r6 } from '../../../../drawing';
import { defineTool, jsonResult } from '../session';

export const getBlocks = defineTool({
  name: 'get_blocks',
  description: 'Block definitions (layout and anonymous blocks excluded unless include_anonymous) with base point, entity counts and how often each is inserted.',
  input: z.object({ include_anonymous: z.boolean().default(false) }).strict(),
  run(session, input) {
    const inserts = insertCounts(session.index);
    const blocks = [...session.doc.blocks.values()]
      .filter((b) => input.include_anonymous || !b.name.startsWith('*'))
      .map((b) => ({ name: b.name, basePoint: [r6(b.basePoint.x), r6(b.basePoint.y)], entityCount: b.entities.length, countsByType: countByType(b.entities), insertCount: inserts.get(b.name.toUpperCase()) ?? 0, attributeTags: b.entities.filter((e) => e.type === 'ATTDEF' && e.geometry.kind === 'text').map((e) => (e.geometry.kind === 'text' ? (e.geometry.tag ?? '') : '')) }));
    return jsonResult({ blocks });
  },
});
