import { z } from 'zod';
import { emptyBox, unionBox, boxJson, countByType, r6, REVIEW_LAYER } from '../../../../drawing';
import { defineTool, jsonResult } from '../session';

const UNITS: Record<number, string> = { 0: 'unitless', 1: 'inches', 2: 'feet', 4: 'millimeters', 5: 'centimeters', 6: 'meters' };

export const getDrawingInfo = defineTool({
  name: 'get_drawing_info',
  description: 'Drawing version, units, extents, code page, layouts with entity counts by type (annotations added this session included, in model space), and load problems.',
  input: z.object({}).strict(),
  run(session) {
    const doc = session.doc;
    const header = (name: string): string | undefined => doc.header.get(name)?.values[0]?.value.trim();
    const point = (name: string): number[] | null => {
      const values = doc.header.get(name)?.values;
      return values && values.length >= 2 ? values.slice(0, 2).map((v) => r6(Number(v.value))) : null;
    };
    const insUnits = Number(header('$INSUNITS') ?? 0);
    // Annotations added this session are part of the drawing a client reads back (in the layout they were written to).
    const total = (counts: Record<string, number>): number => Object.values(counts).reduce((n, c) => n + c, 0);
    const addedTotal = doc.layouts.reduce((n, layout) => n + total(session.addedByType(layout.name)), 0);
    const withAdded = (counts: Record<string, number>, added: Record<string, number>): Record<string, number> => {
      const merged = { ...counts };
      for (const [type, n] of Object.entries(added)) merged[type] = (merged[type] ?? 0) + n;
      return Object.fromEntries(Object.entries(merged).sort(([a], [b]) => a.localeCompare(b)));
    };
    return jsonResult({
      version: doc.version,
      codePage: doc.codePage,
      units: UNITS[insUnits] ?? `code ${insUnits}`,
      headerExtents: { min: point('$EXTMIN'), max: point('$EXTMAX') },
      layouts: doc.layouts.map((layout) => {
        const box = emptyBox();
        for (const e of layout.entities) unionBox(box, session.index.box(e));
        const added = session.addedByType(layout.name);
        return { name: layout.name, paperSpace: layout.paperSpace, block: layout.blockName, entityCount: layout.entities.length + total(added), countsByType: withAdded(countByType(layout.entities), added), extents: boxJson(box) };
      }),
      layerCount: doc.layers.size + (addedTotal > 0 && !doc.layers.has(REVIEW_LAYER) ? 1 : 0),
      blockCount: [...doc.blocks.values()].filter((b) => !b.name.startsWith('*')).length,
      proxyEntityCount: doc.layouts.reduce((n, l) => n + l.entities.filter((e) => e.type === 'ACAD_PROXY_ENTITY').length, 0),
      problems: doc.problems,
      annotationsAdded: session.annotationCount,
    });
  },
});
