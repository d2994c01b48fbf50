import type { DxfDocument } from './model';
import type { Tag } from './annotations';

export interface WriteEdits {
  /** Entities appended to the ENTITIES section (model space). */
  entities: Tag[];
  /** Table entries appended to the LAYER table (the review layer when it is missing). */
  layerEntries: Tag[];
  /** Table entries appended to the APPID table (CadSight's XDATA application when missing). */
  appIdEntries?: Tag[];
  /** Table entries appended to the STYLE table (the review notes' CJK style when missing). */
  styleEntries?: Tag[];
  /** Entities appended to a block before its ENDBLK, by block name (paper layouts other than the active one). */
  blockEntities?: Record<string, Tag[]>;
  /** Table entries appended to the BLOCK_RECORD table (records of the blocks below). */
  blockRecordEntries?: Tag[];
  /** BLOCK … ENDBLK definitions appended to the BLOCKS section (e.g. dimension blocks). */
  blocks?: Tag[];
  /** New $HANDSEED value, when handles were allocated. */
  handSeed?: string;
}

function line(code: number, value: string): string {
  return `${String(code).padStart(3, ' ')}\n${value}\n`;
}

function emit(tags: Tag[]): string {
  let out = '';
  for (const [code, value] of tags) out += line(code, value);
  return out;
}

/**
 * Serialises the document: every original tag in its original order (values byte-identical),
 * plus the edits spliced in before the LAYER table's ENDTAB and the ENTITIES section's ENDSEC.
 * A file without an ENTITIES section gets one before OBJECTS (or EOF).
 */
export function writeDxf(doc: DxfDocument, edits: WriteEdits): string {
  const { codes, values } = doc.tags;
  const entitiesSection = doc.sections.find((s) => s.name === 'ENTITIES');
  const layerTable = doc.tables.find((t) => t.name === 'LAYER');
  const appIdTable = doc.tables.find((t) => t.name === 'APPID');
  const styleTable = doc.tables.find((t) => t.name === 'STYLE');
  const blockEnds = blockEndIndexes(doc, Object.keys(edits.blockEntities ?? {}));
  const objects = doc.sections.find((s) => s.name === 'OBJECTS');
  const recordTable = doc.tables.find((t) => t.name === 'BLOCK_RECORD');
  const blocksSection = doc.sections.find((s) => s.name === 'BLOCKS');
  const seedIndex = doc.header.get('$HANDSEED')?.valueIndex;
  const parts: string[] = [];
  let hasEof = false;
  const entitiesBlock = emit(edits.entities);
  for (let i = 0; i < codes.length; i++) {
    if (layerTable && i === layerTable.end && edits.layerEntries.length) parts.push(emit(edits.layerEntries));
    if (appIdTable && i === appIdTable.end && edits.appIdEntries?.length) parts.push(emit(edits.appIdEntries));
    if (styleTable && i === styleTable.end && edits.styleEntries?.length) parts.push(emit(edits.styleEntries));
    const blockName = blockEnds.get(i);
    if (blockName !== undefined) parts.push(emit(edits.blockEntities?.[blockName] ?? []));
    if (recordTable && i === recordTable.end && edits.blockRecordEntries?.length) parts.push(emit(edits.blockRecordEntries));
    if (blocksSection && i === blocksSection.end && edits.blocks?.length) parts.push(emit(edits.blocks));
    if (entitiesSection && i === entitiesSection.end) parts.push(entitiesBlock);
    const isEof = codes[i] === 0 && (values[i] as string).trim() === 'EOF';
    if (!entitiesSection && edits.entities.length && (isEof || (objects && i === objects.start))) parts.push(line(0, 'SECTION') + line(2, 'ENTITIES') + entitiesBlock + line(0, 'ENDSEC'));
    if (isEof) hasEof = true;
    const value = i === seedIndex && edits.handSeed ? edits.handSeed : (values[i] as string);
    parts.push(line(codes[i] as number, value));
  }
  if (!hasEof) {
    if (!entitiesSection && !objects && edits.entities.length) parts.push(line(0, 'SECTION') + line(2, 'ENTITIES') + entitiesBlock + line(0, 'ENDSEC'));
    parts.push(line(0, 'EOF'));
  }
  return parts.join('');
}

/** Tag index of the ENDBLK of each named block (upper-case names), mapped back to the given name. */
function blockEndIndexes(doc: DxfDocument, names: readonly string[]): Map<number, string> {
  const ends = new Map<number, string>();
  if (names.length === 0) return ends;
  const wanted = new Map(names.map((n) => [n.toUpperCase(), n]));
  const blocks = doc.sections.find((s) => s.name === 'BLOCKS');
  if (!blocks) return ends;
  const { codes, values } = doc.tags;
  let current: string | undefined;
  for (let i = blocks.start; i < blocks.end; i++) {
    if (codes[i] !== 0) continue;
    const type = (values[i] as string).trim();
    if (type === 'BLOCK') {
      current = undefined;
      for (let j = i + 1; j < blocks.end && codes[j] !== 0; j++) if (codes[j] === 2) current = wanted.get((values[j] as string).trim().toUpperCase());
    } else if (type === 'ENDBLK' && current !== undefined) {
      ends.set(i, current);
      current = undefined;
    }
  }
  return ends;
}
