import type { DrawingSource, DrawingToolResult, DrawingWriteTarget } from '../../ports/drawingSource';

/**
 * Test kit (imported by tests only): an in-memory drawing that answers in the JSON shapes of the
 * CadSight DXF backend (boxes [minX,minY,maxX,maxY], points [x,y]), records every call, and can
 * fail a chosen tool — for fault injection the real backend cannot stage.
 */

type Box = { minX: number; minY: number; maxX: number; maxY: number };
type P = { x: number; y: number };
const arr = (b: Box): number[] => [b.minX, b.minY, b.maxX, b.maxY];
const xy = (p: P): number[] => [p.x, p.y];
const boxOf = (b: unknown): Box => {
  const [minX, minY, maxX, maxY] = b as number[];
  return { minX: minX!, minY: minY!, maxX: maxX!, maxY: maxY! };
};

export interface FakeDrawing {
  frames: { id: string; bbox: Box; sheet: string; titleBlock: Record<string, string | null> }[];
  entities: { handle: string; type: string; layer: string; bbox: Box }[];
  texts: { handle: string; text: string; at: P; height: number; layer: string }[];
  dimensions: { handle: string; layer: string; measurement: number; textOverride: string; textAt: P }[];
  zeroLength: { handle: string; type: string; at: P }[];
  duplicates: { handles: string[]; type: string; at: P }[];
}

/** A valid 1×1 PNG, enough for the output files. */
const PNG_1x1 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';

const CAPABILITY_TOOLS = {
  screenshot: 'get_screenshot',
  frames: 'find_frames',
  texts: 'get_texts',
  dimensions: 'get_dimensions',
  entities: 'get_entities',
  drawingInfo: 'get_drawing_info',
  zeroLength: 'find_zero_length',
  duplicates: 'find_duplicate_entities',
  leaderWrite: 'add_leader_annotation',
  save: 'save_drawing',
} as const;

const json = (value: unknown): DrawingToolResult => ({ content: [{ type: 'text', text: JSON.stringify(value) }] });

export interface FakeBackend {
  source: DrawingSource;
  target: DrawingWriteTarget;
  calls: { name: string; args: Record<string, unknown> }[];
  drawing: FakeDrawing;
  /** Makes the next calls of `tool` for the given frame bbox (or all) fail with isError. */
  failTool: (tool: string, when?: (args: Record<string, unknown>) => boolean) => void;
  /** Awaited before answering each call (lets a test abort mid-run or add latency). */
  onCall?: (name: string, args: Record<string, unknown>) => void | Promise<void>;
}

export function createFakeBackend(drawing: FakeDrawing, label = 'fake.dxf'): FakeBackend {
  const failures: { tool: string; when: (args: Record<string, unknown>) => boolean }[] = [];
  const backend: FakeBackend = {
    calls: [],
    drawing,
    failTool: (tool, when = () => true) => failures.push({ tool, when }),
    source: undefined as unknown as DrawingSource,
    target: undefined as unknown as DrawingWriteTarget,
  };
  async function callTool(name: string, args: Record<string, unknown>): Promise<DrawingToolResult> {
    backend.calls.push({ name, args });
    await backend.onCall?.(name, args);
    if (failures.some((f) => f.tool === name && f.when(args))) return { content: [{ type: 'text', text: `${name} exploded` }], isError: true };
    const page = <T>(items: T[]) => {
      const offset = Number(args.offset ?? 0);
      const limit = Number(args.limit ?? items.length);
      return { items: items.slice(offset, offset + limit), total: items.length };
    };
    switch (name) {
      case 'find_frames':
        return json({
          frames: drawing.frames.map((f) => ({ id: f.id, kind: 'rectangle', layout: 'Model', bbox: arr(f.bbox), sheet: { sheet: f.sheet, scale: 1 }, titleBlock: f.titleBlock })),
        });
      case 'get_drawing_info': {
        const xs = drawing.entities.flatMap((e) => [e.bbox.minX, e.bbox.maxX]);
        const ys = drawing.entities.flatMap((e) => [e.bbox.minY, e.bbox.maxY]);
        const extents = xs.length ? [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)] : null;
        return json({ layouts: [{ name: 'Model', extents }] });
      }
      case 'get_entities': {
        const p = page(drawing.entities);
        return json({ entities: p.items.map((e) => ({ ...e, bbox: arr(e.bbox) })), total: p.total });
      }
      case 'get_texts': {
        const p = page(drawing.texts);
        return json({ texts: p.items.map((t) => ({ ...t, at: xy(t.at) })), total: p.total });
      }
      case 'get_dimensions': {
        return json({ dimensions: drawing.dimensions.map((d) => ({ ...d, textAt: xy(d.textAt) })) });
      }
      case 'find_zero_length':
        return json({ entities: drawing.zeroLength.map((z) => ({ handle: z.handle, type: z.type, bbox: [z.at.x, z.at.y, z.at.x, z.at.y] })) });
      case 'find_duplicate_entities':
        return json({ groups: drawing.duplicates.map((g) => ({ handles: g.handles, type: g.type, bbox: [g.at.x, g.at.y, g.at.x, g.at.y] })) });
      case 'get_screenshot': {
        const region = boxOf(args.bbox);
        const pixelsPerUnit = 1280 / Math.max(region.maxX - region.minX, region.maxY - region.minY);
        const meta = {
          width: Math.max(1, Math.round((region.maxX - region.minX) * pixelsPerUnit)),
          height: Math.max(1, Math.round((region.maxY - region.minY) * pixelsPerUnit)),
          pixelsPerUnit,
          drawingBbox: arr(region),
        };
        return { content: [{ type: 'image', data: PNG_1x1, mimeType: 'image/png' }, { type: 'text', text: JSON.stringify(meta) }] };
      }
      case 'add_leader_annotation': {
        const [x, y] = (args.points as [number, number][])[1]!;
        const handle = `W${backend.calls.length}`;
        drawing.texts.push({ handle, text: String(args.text), at: { x: x!, y: y! }, height: Number(args.height), layer: 'AI_REVIEW' });
        return json({ handle });
      }
      case 'save_drawing':
        return json({ path: `/tmp/${label}.ai-review.dxf` });
      default:
        return { content: [{ type: 'text', text: `unknown tool ${name}` }], isError: true };
    }
  }
  const tools = [...Object.values(CAPABILITY_TOOLS)].map((name) => ({ name }));
  backend.source = { label, capabilityTools: CAPABILITY_TOOLS, listTools: async () => tools, callTool };
  backend.target = { label, capabilityTools: CAPABILITY_TOOLS, callTool };
  return backend;
}

const a3 = (index: number): Box => ({ minX: index * 450, minY: 0, maxX: index * 450 + 420, maxY: 297 });
const fields = (title: string, revision: string | null, sheet: number) => ({
  title,
  drawingNo: `CS-0${sheet}`,
  scale: '1:1',
  designer: '张工',
  checker: '李工',
  date: '2026-11-30',
  revision,
});

/** Three A3 frames side by side with one planted problem of each rule kind. */
export function threeFrameDrawing(): FakeDrawing {
  return {
    frames: [
      { id: 'F1', bbox: a3(0), sheet: 'A3', titleBlock: fields('法兰', 'A', 1) },
      { id: 'F2', bbox: a3(1), sheet: 'A3', titleBlock: fields('法兰盘', 'A', 2) },
      { id: 'F3', bbox: a3(2), sheet: 'A3', titleBlock: fields('法兰盖', null, 3) },
    ],
    entities: [
      { handle: '10', type: 'LINE', layer: 'OUTLINE', bbox: { minX: 50, minY: 50, maxX: 150, maxY: 50 } },
      { handle: '11', type: 'CIRCLE', layer: '0', bbox: { minX: 500, minY: 100, maxX: 540, maxY: 140 } },
      { handle: '12', type: 'LINE', layer: 'OUTLINE', bbox: { minX: 1000, minY: 60, maxX: 1100, maxY: 60 } },
      { handle: '13', type: 'LINE', layer: 'OUTLINE', bbox: { minX: 1000, minY: 60, maxX: 1100, maxY: 60 } },
      { handle: '14', type: 'LINE', layer: 'OUTLINE', bbox: { minX: 1200, minY: 80, maxX: 1200, maxY: 80 } },
      { handle: '15', type: 'LINE', layer: 'OUTLINE', bbox: { minX: 2000, minY: 0, maxX: 2100, maxY: 10 } },
    ],
    texts: [
      { handle: '20', text: '技术要求', at: { x: 60, y: 200 }, height: 5, layer: 'TEXT' },
      { handle: '21', text: '未注圆角 R2', at: { x: 510, y: 200 }, height: 4, layer: 'TEXT' },
    ],
    dimensions: [
      { handle: '30', layer: 'DIM', measurement: 50, textOverride: '60', textAt: { x: 100, y: 40 } },
      { handle: '31', layer: 'DIM', measurement: 40, textOverride: '', textAt: { x: 520, y: 150 } },
    ],
    zeroLength: [{ handle: '14', type: 'LINE', at: { x: 1200, y: 80 } }],
    duplicates: [{ handles: ['12', '13'], type: 'LINE', at: { x: 1050, y: 60 } }],
  };
}
