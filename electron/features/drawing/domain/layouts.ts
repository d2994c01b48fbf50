import type { Box, DxfDocument, DxfEntity, DxfLayout } from './model';
import type { TagStream } from './tags';
import { decodeDxfEscapes, type MbcsDecoder } from './textEscapes';
import { nextZero } from './tagView';

export interface LayoutObject {
  name: string;
  /** BLOCK_RECORD handle of the layout's block (group 330 inside the AcDbLayout subclass). */
  recordHandle: string;
  tabOrder: number;
  /** PLOTSETTINGS group 72: the unit of the layout's paper (0 inches, 1 mm); undefined when absent. */
  paperUnits?: 'inches' | 'mm';
  /** PLOTSETTINGS 44/45 (paper size, always mm), 40–43 (margins, mm) and 73 (plot rotation in quarter turns). */
  paper: { width: number; height: number; left: number; bottom: number; right: number; top: number; rotation: number };
  /** AcDbLayout 10/20 and 11/21: the layout's limits in paper units (what AutoCAD shows as the sheet). */
  limits: { minX: number; minY: number; maxX: number; maxY: number };
}

/** Reads the LAYOUT objects of the OBJECTS section (name, block record, tab order). */
export function readLayoutObjects(tags: TagStream, start: number, end: number, decode?: MbcsDecoder): LayoutObject[] {
  const layouts: LayoutObject[] = [];
  let i = nextZero(tags, start, end);
  while (i < end) {
    const next = nextZero(tags, i + 1, end);
    if ((tags.values[i] as string).trim() === 'LAYOUT') {
      let inLayoutClass = false;
      let inPlotSettings = false;
      const layout: LayoutObject = { name: '', recordHandle: '', tabOrder: 0, paper: { width: 0, height: 0, left: 0, bottom: 0, right: 0, top: 0, rotation: 0 }, limits: { minX: 0, minY: 0, maxX: 0, maxY: 0 } };
      const paperField: Partial<Record<number, keyof LayoutObject['paper']>> = { 40: 'left', 41: 'bottom', 42: 'right', 43: 'top', 44: 'width', 45: 'height', 73: 'rotation' };
      const limitField: Partial<Record<number, keyof LayoutObject['limits']>> = { 10: 'minX', 20: 'minY', 11: 'maxX', 21: 'maxY' };
      for (let j = i + 1; j < next; j++) {
        const code = tags.codes[j] as number;
        const value = tags.values[j] as string;
        const paperKey = paperField[code];
        const limitKey = limitField[code];
        if (code === 100) {
          inLayoutClass = value.trim() === 'AcDbLayout';
          inPlotSettings = value.trim() === 'AcDbPlotSettings';
        } else if (inPlotSettings && code === 72) {
          const units = Number.parseInt(value, 10);
          if (units === 0) layout.paperUnits = 'inches';
          else if (units === 1) layout.paperUnits = 'mm';
        } else if (inPlotSettings && paperKey !== undefined) {
          const v = Number.parseFloat(value);
          if (Number.isFinite(v)) layout.paper[paperKey] = v;
        } else if (inLayoutClass && limitKey !== undefined) {
          const v = Number.parseFloat(value);
          if (Number.isFinite(v)) layout.limits[limitKey] = v;
        } else if (inLayoutClass && code === 1) layout.name = decodeDxfEscapes(value, decode);
        else if (inLayoutClass && code === 71) layout.tabOrder = Number.parseInt(value, 10) || 0;
        else if (inLayoutClass && code === 330) layout.recordHandle = value.trim();
      }
      if (layout.name) layouts.push(layout);
    }
    i = next;
  }
  return layouts;
}

/**
 * Groups entities by layout: "Model" = ENTITIES without the paper-space flag plus *Model_Space;
 * the active paper layout = ENTITIES with the flag plus *Paper_Space; other layouts = their
 * *Paper_SpaceN block. Files without LAYOUT objects (R12) get one paper layout "Layout1".
 */
export function assembleLayouts(doc: DxfDocument, model: DxfEntity[], paper: DxfEntity[], objects: LayoutObject[]): DxfLayout[] {
  const blockEntities = (name: string): DxfEntity[] => doc.blocks.get(name.toUpperCase())?.entities ?? [];
  const layouts: DxfLayout[] = [{ name: 'Model', blockName: '*Model_Space', paperSpace: false, entities: [...model, ...blockEntities('*Model_Space')] }];
  const papers = objects.filter((o) => o.name.toUpperCase() !== 'MODEL').sort((a, b) => a.tabOrder - b.tabOrder);
  if (papers.length === 0) {
    layouts.push({ name: 'Layout1', blockName: '*Paper_Space', paperSpace: true, entities: [...paper, ...blockEntities('*Paper_Space')] });
    return layouts;
  }
  const recordToBlock = new Map<string, string>();
  for (const block of doc.blocks.values()) if (block.recordHandle) recordToBlock.set(block.recordHandle.toUpperCase(), block.name);
  for (const [handle, name] of doc.blockRecords) if (!recordToBlock.has(handle.toUpperCase())) recordToBlock.set(handle.toUpperCase(), name);
  for (const layout of papers) {
    const blockName = recordToBlock.get(layout.recordHandle.toUpperCase()) ?? '';
    const active = blockName.toUpperCase() === '*PAPER_SPACE';
    const entities = active ? [...paper, ...blockEntities(blockName)] : blockName ? blockEntities(blockName) : [];
    const paperBox = paperBoxOf(layout);
    layouts.push({ name: layout.name, blockName: blockName || '(missing block record)', paperSpace: true, entities, ...(layout.paperUnits ? { paperUnits: layout.paperUnits } : {}), ...(paperBox ? { paperBox } : {}) });
  }
  return layouts;
}

/**
 * The sheet of a paper layout in paper units, as plotted: the plot settings' paper size (mm, turned
 * by the plot rotation, in inches when the layout's paper is) placed so that paper-space (0,0) is
 * the corner of the printable area — AutoCAD's convention — else the layout's limits when they
 * have an area. Undefined when the file says neither (the layout is then judged by its content).
 */
export function paperBoxOf(layout: LayoutObject): Box | undefined {
  const p = layout.paper;
  const perMm = layout.paperUnits === 'inches' ? 1 / 25.4 : 1;
  if (p.width > 0 && p.height > 0) {
    const turned = p.rotation === 1 || p.rotation === 3;
    const [w, h] = turned ? [p.height, p.width] : [p.width, p.height];
    // Margins follow the paper as loaded in the plotter; for a turned plot the left/bottom margins are other edges.
    const [left, bottom] = turned ? [p.bottom, p.left] : [p.left, p.bottom];
    return { minX: -left * perMm, minY: -bottom * perMm, maxX: (w - left) * perMm, maxY: (h - bottom) * perMm };
  }
  const l = layout.limits;
  return l.maxX > l.minX && l.maxY > l.minY ? { ...l } : undefined;
}
