import type { DxfDocument, DxfEntity, DxfLayout } from './model';
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
      const layout: LayoutObject = { name: '', recordHandle: '', tabOrder: 0 };
      for (let j = i + 1; j < next; j++) {
        const code = tags.codes[j];
        const value = tags.values[j] as string;
        if (code === 100) {
          inLayoutClass = value.trim() === 'AcDbLayout';
          inPlotSettings = value.trim() === 'AcDbPlotSettings';
        } else if (inPlotSettings && code === 72) {
          const units = Number.parseInt(value, 10);
          if (units === 0) layout.paperUnits = 'inches';
          else if (units === 1) layout.paperUnits = 'mm';
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
    layouts.push({ name: layout.name, blockName: blockName || '(missing block record)', paperSpace: true, entities, ...(layout.paperUnits ? { paperUnits: layout.paperUnits } : {}) });
  }
  return layouts;
}
