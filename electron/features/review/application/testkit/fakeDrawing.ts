import type { DrawingSource, DrawingToolResult, DrawingWriteTarget } from '../../ports/drawingSource';

/**
 * Test kit (imported by tests only): an in-memory drawing that answers the CadSight DXF backend's
 * tool shapes, records every call, and can fail a chosen tool — so the application layer is
 * tested against its ports without the real backend.
 */

type Box = { minX: number; minY: number; maxX: number; maxY: number };
type P = { x: number; y: number };

export interface FakeDrawing {
  frames: { id: string; bbox: Box; sheet: string; fields: { label: string; value: string }[] }[];
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
          frames: drawing.frames.map((f) => ({ id: f.id, layout: 'Model', bbox: f.bbox, sheet: f.sheet, titleBlock: { fields: f.fields } })),
        });
      case 'get_drawing_info': {
        const xs = drawing.entities.flatMap((e) => [e.bbox.minX, e.bbox.maxX]);
        const ys = drawing.entities.flatMap((e) => [e.bbox.minY, e.bbox.maxY]);
        return json({ extents: xs.length ? { minX: Math.min(...xs), minY: Math.min(...ys), maxX: Math.max(...xs), maxY: Math.max(...ys) } : null });
      }
      case 'get_entities': {
        const p = page(drawing.entities);
        return json({ entities: p.items, total: p.total });
      }
      case 'get_texts': {
        const texts = args.layer ? drawing.texts.filter((t) => t.layer === args.layer) : drawing.texts;
        const p = page(texts);
        return json({ texts: p.items, total: p.total });
      }
      case 'get_dimensions': {
        const p = page(drawing.dimensions);
        return json({ dimensions: p.items, total: p.total });
      }
      case 'find_zero_length':
        return json({ entities: drawing.zeroLength });
      case 'find_duplicate_entities':
        return json({ groups: drawing.duplicates });
      case 'get_screenshot': {
        const region = args.bbox as Box;
        const upp = Math.max(region.maxX - region.minX, region.maxY - region.minY) / 1280;
        const meta = {
          widthPx: Math.max(1, Math.round((region.maxX - region.minX) / upp)),
          heightPx: Math.max(1, Math.round((region.maxY - region.minY) / upp)),
          region,
          transform: { origin: { x: region.minX, y: region.maxY }, unitsPerPixel: upp },
        };
        return { content: [{ type: 'image', data: PNG_1x1, mimeType: 'image/png' }, { type: 'text', text: JSON.stringify(meta) }] };
      }
      case 'add_leader_annotation': {
        const points = args.points as P[];
        const handle = `W${backend.calls.length}`;
        drawing.texts.push({ handle, text: String(args.text), at: points[1]!, height: Number(args.height), layer: 'AI_REVIEW' });
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
const fields = (title: string, revision: string) => [
  { label: '图名', value: title },
  { label: '图号', value: `CS-0${title.length}` },
  { label: '比例', value: '1:1' },
  { label: '设计', value: '张工' },
  { label: '审核', value: '李工' },
  { label: '日期', value: '2026-11-30' },
  { label: '版本', value: revision },
];

/** Three A3 frames side by side with one planted problem of each rule kind. */
export function threeFrameDrawing(): FakeDrawing {
  return {
    frames: [
      { id: 'F1', bbox: a3(0), sheet: 'A3', fields: fields('法兰', 'A') },
      { id: 'F2', bbox: a3(1), sheet: 'A3', fields: fields('法兰盘', 'A') },
      { id: 'F3', bbox: a3(2), sheet: 'A3', fields: fields('法兰盖', '') },
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
