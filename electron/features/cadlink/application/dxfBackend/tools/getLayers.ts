import { z } from 'zod';
import { REVIEW_LAYER } from '../../../../drawing';
import { defineTool, jsonResult } from '../session';

export const getLayers = defineTool({
  name: 'get_layers',
  description: 'Layers with colour, line type, on/off, frozen, locked and the number of top-level entities on each (all layouts).',
  input: z.object({}).strict(),
  run(session) {
    const counts = new Map<string, number>();
    for (const layout of session.doc.layouts) for (const e of layout.entities) counts.set(e.layer.toUpperCase(), (counts.get(e.layer.toUpperCase()) ?? 0) + 1);
    // Annotations added this session sit on AI_REVIEW (the layer entry is written with them).
    const added = Object.values(session.addedByType()).reduce((n, c) => n + c, 0);
    if (added > 0) counts.set(REVIEW_LAYER, (counts.get(REVIEW_LAYER) ?? 0) + added);
    const layers = [...session.doc.layers.values()].map((l) => ({ name: l.name, color: l.color, ...(l.trueColor === undefined ? {} : { trueColor: l.trueColor }), lineType: l.lineType, on: !l.off, frozen: l.frozen, locked: l.locked, entityCount: counts.get(l.name.toUpperCase()) ?? 0 }));
    // Entities may name layers the table lacks (R12 creates them implicitly): list those too.
    for (const [name, count] of counts) if (!session.doc.layers.has(name)) layers.push({ name, color: 7, lineType: 'CONTINUOUS', on: true, frozen: false, locked: false, entityCount: count });
    return jsonResult({ layers });
  },
});
