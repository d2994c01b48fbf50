import { readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DrawingIndex } from './bounds';
import { buildDocument } from './documentLoader';
import { apply } from './geometry';
import type { ViewportGeometry } from './model';
import { layoutByName } from './queries';
import { layoutExtents, layoutScene } from './scene';
import { readTextTags } from './tags';
import { layoutViewports, viewportTransform } from './viewports';

function fixture(name: string): DrawingIndex {
  const text = readFileSync(path.resolve('electron/testSupport/fixtures/dxf', name), 'utf8');
  return new DrawingIndex(buildDocument(readTextTags(text), { codePage: 'UTF-8' }));
}

const texts = (parts: ReturnType<typeof layoutScene>[number]) => parts.primitives.flatMap((p) => (p.kind === 'text' ? [p.text] : []));

describe('paper layout viewports', () => {
  it('maps the view centre to the viewport centre and scales by paper height over view height, twist and target included', () => {
    const vp = fc.record({ cx: fc.double({ min: -1e3, max: 1e3, noNaN: true }), cy: fc.double({ min: -1e3, max: 1e3, noNaN: true }), h: fc.double({ min: 1, max: 500, noNaN: true }), vh: fc.double({ min: 1, max: 1e5, noNaN: true }), twist: fc.double({ min: -360, max: 360, noNaN: true }), tx: fc.double({ min: -1e5, max: 1e5, noNaN: true }), ty: fc.double({ min: -1e5, max: 1e5, noNaN: true }) });
    fc.assert(
      fc.property(vp, ({ cx, cy, h, vh, twist, tx, ty }) => {
        const g: ViewportGeometry = { kind: 'viewport', center: { x: cx, y: cy }, width: h, height: h, viewCenter: { x: 0, y: 0 }, viewHeight: vh, id: 2, status: 1, twistDeg: twist, target: { x: tx, y: ty }, topView: true, clipHandle: '', frozenLayerHandles: [] };
        const m = viewportTransform(g);
        const centre = apply(m, { x: tx, y: ty }); // view centre (0,0) in display coordinates = the target
        expect(centre.x).toBeCloseTo(cx, 6);
        expect(centre.y).toBeCloseTo(cy, 6);
        const one = apply(m, { x: tx + 1, y: ty });
        expect(Math.hypot(one.x - cx, one.y - cy)).toBeCloseTo(h / vh, 6);
      }),
    );
  });

  it('draws each viewport without the layers frozen in it only (ezdxf viewport_frozen_layers.dxf)', () => {
    const index = fixture('ezdxf_viewport_frozen_layers.dxf');
    const layout = layoutByName(index, 'Layout1');
    const viewports = layoutViewports(index, layout);
    expect(viewports.map((v) => [...v.frozenLayers])).toEqual([[], ['LAYER1'], ['LAYER2']]);
    const parts = layoutScene(index, 'Layout1', layoutExtents(index, layout));
    expect(parts.map(texts)).toEqual([
      expect.arrayContaining(['Layer 1', 'Layer 2', 'Layer 3 is frozen']),
      expect.not.arrayContaining(['Layer 1']),
      expect.not.arrayContaining(['Layer 2']),
      expect.arrayContaining(['no overrides', 'Layer 1 frozen', 'Layer 2 frozen']),
    ]);
    expect(parts[1]?.primitives.length).toBeGreaterThan(0);
  });

  it('shows the model through the viewports of a 3-view AutoCAD-style layout, clipped to each viewport (QCAD flange.dxf)', () => {
    const index = fixture('mech_flange_layouts.dxf');
    const layout = layoutByName(index, 'Layout');
    const viewports = layoutViewports(index, layout);
    expect(viewports.map((v) => Math.round(v.scale * 100) / 100)).toEqual([1, 0.75, 2]);
    const parts = layoutScene(index, 'Layout', layoutExtents(index, layout));
    for (const part of parts.slice(0, 3)) {
      expect(part.primitives.length).toBeGreaterThan(10);
      expect(part.clip).toHaveLength(4);
      expect(part.viewport?.entity.type).toBe('VIEWPORT');
    }
    expect(parts[3]?.clip).toBeUndefined(); // paper entities last, unclipped, on top
    expect(layoutExtents(index, layout).maxX - layoutExtents(index, layout).minX).toBeLessThan(450);
  });
});
