import type { DxfDocument, DxfEntity, DxfGeometry } from './model';
import { parseProxyGraphics, type ProxyShape } from './proxyGraphics';

/**
 * The shapes of a proxy entity's graphics as virtual entities (like a block's contents): layer
 * and linetype indices name LAYER/LTYPE table entries in storage order; a shape without a layer
 * stays on "0" and so takes the proxy's own layer when drawn, as block contents do; filled
 * polygons become solid hatches. Parsed when drawn, never stored.
 */
export function proxyEntities(doc: DxfDocument, parent: DxfEntity, graphics: Uint8Array): DxfEntity[] {
  const { shapes } = parseProxyGraphics(graphics);
  if (shapes.length === 0) return [];
  const layerNames = [...doc.layers.values()].map((l) => l.name);
  return shapes.map((shape) => {
    const a = shape.attributes;
    const entity: DxfEntity = {
      type: shape.kind.toUpperCase(),
      handle: parent.handle,
      layer: (a.layerIndex === undefined ? undefined : layerNames[a.layerIndex]) ?? '0',
      color: a.color,
      paperSpace: parent.paperSpace,
      tagStart: parent.tagStart,
      tagEnd: parent.tagEnd,
      geometry: geometryOf(shape),
    };
    if (a.trueColor !== undefined) entity.trueColor = a.trueColor;
    if (a.lineweight !== undefined) entity.lineweight = a.lineweight;
    const lineType = a.lineTypeIndex === undefined ? undefined : doc.lineTypes[a.lineTypeIndex];
    if (lineType) entity.lineType = lineType;
    return entity;
  });
}

function geometryOf(shape: ProxyShape): DxfGeometry {
  switch (shape.kind) {
    case 'polyline':
      if (shape.filled) return { kind: 'hatch', loops: [[...shape.points, shape.points[0] ?? { x: 0, y: 0 }]], solid: true };
      if (shape.points.length === 1) return { kind: 'point', at: shape.points[0] ?? { x: 0, y: 0 } };
      return { kind: 'polyline', vertices: shape.points.map((p, i) => ({ x: p.x, y: p.y, bulge: shape.bulges?.[i] ?? 0 })), closed: shape.closed };
    case 'circle':
      return { kind: 'circle', center: shape.center, radius: shape.radius };
    case 'arc':
      return { kind: 'arc', center: shape.center, radius: shape.radius, startAngle: shape.startAngle, endAngle: shape.endAngle };
    case 'text':
      return { kind: 'text', text: shape.text, raw: shape.text, at: shape.at, height: shape.height, rotation: shape.rotation, hAlign: 0, vAlign: 0, width: 0, mtext: false };
  }
}
