import { z } from 'zod';
import { emptyBox, unionBox, boxJson, countByType, r6 } from '../../../../drawing';
import { defineTool, jsonResult } from '../session';

const UNITS: Record<number, string> = { 0: 'unitless', 1: 'inches', 2: 'feet', 4: 'millimeters', 5: 'centimeters', 6: 'meters' };

export const getDrawingInfo = defineTool({
  name: 'get_drawing_info',
  description: 'Drawing version, units, extents, code page, layouts with entity counts by type, and load problems.',
  input: z.object({}).strict(),
  run(session) {
    const doc = session.doc;
    const header = (name: string): string | undefined => doc.header.get(name)?.values[0]?.value.trim();
    const point = (name: string): number[] | null => {
      const values = doc.header.get(name)?.values;
      return values && values.length >= 2 ? values.slice(0, 2).map((v) => r6(Number(v.value))) : null;
    };
    const insUnits = Number(header('$INSUNITS') ?? 0);
    return jsonResult({
      version: doc.version,
      codePage: doc.codePage,
      units: UNITS[insUnits] ?? `code ${insUnits}`,
      headerExtents: { min: point('$EXTMIN'), max: point('$EXTMAX') },
      layouts: doc.layouts.map((layout) => {
        const box = emptyBox();
        for (const e of layout.entities) unionBox(box, session.index.box(e));
        return { name: layout.name, paperSpace: layout.paperSpace, block: layout.blockName, entityCount: layout.entities.length, countsByType: countByType(layout.entities), extents: boxJson(box) };
      }),
      layerCount: doc.layers.size,
      blockCount: [...doc.blocks.values()].filter((b) => !b.name.startsWith('*')).length,
      proxyEntityCount: doc.layouts.reduce((n, l) => n + l.entities.filter((e) => e.type === 'ACAD_PROXY_ENTITY').length, 0),
      problems: doc.problems,
      annotationsAdded: session.annotationCount,
    });
  },
});
