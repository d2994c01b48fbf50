import { BlockExpansion, blockStructureProblems } from './blockExpansion';
import { readBlocks, readEntityList } from './entityList';
import { emptyBox } from './geometry';
import { hatchProblems } from './hatchFill';
import { readMlineStyles } from './mlines';
import { handleProblems } from './handleProblems';
import { assembleLayouts, readLayoutObjects, type LayoutObject } from './layouts';
import type { DxfBlock, DxfDocument, DxfEntity, DxfLayer, DxfLayout, DxfTextStyle, HeaderVariable, TagRange } from './model';
import type { DxfProblem, TagReadResult, TagStream } from './tags';
import { decodeDxfEscapes, type MbcsDecoder } from './textEscapes';
import { nextZero, TagView } from './tagView';

export interface LoadOptions {
  /** Code page name reported by get_drawing_info ($DWGCODEPAGE, or UTF-8 for R2007+). */
  codePage: string;
  decodeMbcs?: MbcsDecoder;
}

/**
 * Builds the document model from a tag stream. Structure damage (missing ENDSEC, blocks
 * without names, tags outside sections) is reported in `problems` and the rest still loads.
 * Every loop advances its index on each pass, so no input can make it spin.
 */
export function buildDocument(read: TagReadResult, options: LoadOptions): DxfDocument {
  const { tags } = read;
  const { codes, values } = tags;
  const problems: DxfProblem[] = [...read.problems];
  const decode = options.decodeMbcs;
  const doc: DxfDocument = {
    tags,
    version: 'unknown',
    codePage: options.codePage,
    header: new Map(),
    layers: new Map(),
    styles: new Map(),
    blockRecords: new Map(),
    dimStyles: [],
    lineTypes: [],
    blocks: new Map(),
    layouts: [],
    entitiesByHandle: new Map(),
    sections: [],
    tables: [],
    problems,
  };
  const modelEntities: DxfEntity[] = [];
  const paperEntities: DxfEntity[] = [];
  const layoutObjects: LayoutObject[] = [];
  const n = codes.length;
  let i = 0;
  while (i < n) {
    if (codes[i] !== 0) {
      // 999 is a DXF comment, legal anywhere: skipping it repairs nothing.
      if (codes[i] !== 999) problems.push({ kind: 'stray_tag', message: `tag ${codes[i]} outside any section skipped` });
      i = nextZero(tags, i + 1, n);
      continue;
    }
    const marker = (values[i] as string).trim();
    if (marker === 'EOF') break;
    if (marker !== 'SECTION') {
      problems.push({ kind: 'stray_entity', message: `${marker} outside any section skipped` });
      i = nextZero(tags, i + 1, n);
      continue;
    }
    const name = codes[i + 1] === 2 ? (values[i + 1] as string).trim() : '';
    const end = sectionEnd(tags, i + 2, n);
    if (end >= n || (values[end] as string).trim() !== 'ENDSEC') problems.push({ kind: 'missing_endsec', message: `section ${name || '(unnamed)'} has no ENDSEC` });
    doc.sections.push({ name, start: i, end });
    const bodyStart = i + 2;
    if (name === 'HEADER') readHeader(tags, bodyStart, end, doc.header);
    else if (name === 'TABLES') readTables(tags, bodyStart, end, doc, problems, decode);
    else if (name === 'BLOCKS') readBlocks(tags, bodyStart, end, doc, problems, decode);
    else if (name === 'ENTITIES') for (const entity of readEntityList(tags, bodyStart, end, decode)) (entity.paperSpace ? paperEntities : modelEntities).push(entity);
    else if (name === 'OBJECTS') {
      layoutObjects.push(...readLayoutObjects(tags, bodyStart, end, decode));
      doc.mlineStyles = readMlineStyles(tags, bodyStart, end);
    }
    i = end < n && (values[end] as string).trim() === 'ENDSEC' ? end + 1 : end;
  }
  nameImages(doc, modelEntities, paperEntities);
  const version = doc.header.get('$ACADVER')?.values[0]?.value.trim();
  if (version) doc.version = version;
  doc.layouts = assembleLayouts(doc, modelEntities, paperEntities, layoutObjects);
  for (const layout of doc.layouts) indexHandles(layout.entities, doc.entitiesByHandle);
  for (const block of doc.blocks.values()) indexHandles(block.entities, doc.entitiesByHandle);
  // Counting needs no boxes: the expansion walks the block graph only.
  problems.push(...handleProblems(doc), ...hatchProblems(doc), ...blockStructureProblems(doc, new BlockExpansion(doc, () => emptyBox())));
  return doc;
}

/** Index of the ENDSEC that closes a section, or of the next SECTION/EOF when it is missing. */
function sectionEnd(tags: TagStream, from: number, n: number): number {
  for (let i = from; i < n; i++) {
    if (tags.codes[i] !== 0) continue;
    const v = (tags.values[i] as string).trim();
    if (v === 'ENDSEC' || v === 'SECTION' || v === 'EOF') return i;
  }
  return n;
}

function readHeader(tags: TagStream, start: number, end: number, header: Map<string, HeaderVariable>): void {
  let current: HeaderVariable | undefined;
  for (let i = start; i < end; i++) {
    const code = tags.codes[i] as number;
    if (code === 9) {
      current = { valueIndex: i + 1, values: [] };
      header.set((tags.values[i] as string).trim(), current);
    } else if (current) current.values.push({ code, value: tags.values[i] as string });
  }
}

function readTables(tags: TagStream, start: number, end: number, doc: DxfDocument, problems: DxfProblem[], decode?: MbcsDecoder): void {
  let i = start;
  let stray = 0;
  while (i < end) {
    if (tags.codes[i] !== 0 || (tags.values[i] as string).trim() !== 'TABLE') {
      // A record between tables (e.g. BLOCK_RECORD entries after ENDTAB without their TABLE header) belongs to no table.
      if (tags.codes[i] === 0 && (tags.values[i] as string).trim() !== 'ENDTAB') stray++;
      i++;
      continue;
    }
    const tableName = tags.codes[i + 1] === 2 ? (tags.values[i + 1] as string).trim() : '';
    let j = nextZero(tags, i + 1, end);
    const head = new TagView(tags, i, j);
    const range: TagRange = { name: tableName, start: i, end };
    const handle = head.str(5);
    if (handle) range.handle = handle.trim();
    while (j < end) {
      const type = (tags.values[j] as string).trim();
      if (type === 'ENDTAB' || type === 'TABLE') break;
      const next = nextZero(tags, j + 1, end);
      readTableEntry(type, new TagView(tags, j, next), doc, decode);
      j = next;
    }
    if (j >= end || (tags.values[j] as string).trim() !== 'ENDTAB') problems.push({ kind: 'missing_endtab', message: `table ${tableName} has no ENDTAB` });
    range.end = j;
    doc.tables.push(range);
    i = j < end && (tags.values[j] as string).trim() === 'ENDTAB' ? j + 1 : j;
  }
  if (stray > 0) problems.push({ kind: 'stray_table_entry', message: `${stray} table record${stray === 1 ? '' : 's'} outside any TABLE in the TABLES section (a table header is missing)` });
}

function readTableEntry(type: string, v: TagView, doc: DxfDocument, decode?: MbcsDecoder): void {
  const name = decodeDxfEscapes(v.str(2), decode);
  if (type === 'LAYER') {
    const color = v.num(62, 7);
    const flags = v.num(70);
    const layer: DxfLayer = { name, color: Math.abs(color) || 7, off: color < 0, frozen: (flags & 1) !== 0, locked: (flags & 4) !== 0, lineType: v.str(6, 'Continuous'), lineweight: v.num(370, -3) };
    if (v.indexOf(420) >= 0) layer.trueColor = v.num(420);
    const handle = v.str(5).trim();
    if (handle) layer.handle = handle;
    doc.layers.set(name.toUpperCase(), layer);
  } else if (type === 'STYLE') {
    const style: DxfTextStyle = { name, font: v.str(3), bigFont: v.str(4), height: v.num(40) };
    doc.styles.set(name.toUpperCase(), style);
  } else if (type === 'DIMSTYLE') {
    doc.dimStyles.push(name);
  } else if (type === 'LTYPE') {
    doc.lineTypes.push(name);
    const pattern = v.numbers(49);
    if (pattern.length >= 2 && pattern.some((d) => d !== 0)) (doc.lineTypePatterns ??= new Map()).set(name.toUpperCase(), pattern);
  } else if (type === 'BLOCK_RECORD') {
    doc.blockRecords.set(v.str(5).trim(), name);
  }
}

/** IMAGE entities get the file name of their IMAGEDEF object (group 1 of the OBJECTS entry), shown in the picture. */
function nameImages(doc: DxfDocument, ...lists: DxfEntity[][]): void {
  const images = [...lists.flat(), ...[...doc.blocks.values()].flatMap((b) => b.entities)].filter((e) => e.geometry.kind === 'image' && !e.geometry.wipeout);
  const objects = doc.sections.find((s) => s.name === 'OBJECTS');
  if (images.length === 0 || !objects) return;
  const files = new Map<string, string>();
  for (let i = nextZero(doc.tags, objects.start + 1, objects.end); i < objects.end; ) {
    const next = nextZero(doc.tags, i + 1, objects.end);
    if ((doc.tags.values[i] as string).trim() === 'IMAGEDEF') {
      const view = new TagView(doc.tags, i, next);
      files.set(view.str(5).trim().toUpperCase(), view.str(1).trim());
    }
    i = next;
  }
  for (const image of images) {
    const g = image.geometry;
    if (g.kind === 'image') g.name = (files.get(g.imageDef.toUpperCase()) ?? '').split(/[\\/]/).pop() ?? '';
  }
}

function indexHandles(entities: DxfEntity[], index: Map<string, DxfEntity>): void {
  for (const entity of entities) {
    if (entity.handle) index.set(entity.handle.toUpperCase(), entity);
    if (entity.geometry.kind === 'insert') indexHandles(entity.geometry.attribs, index);
  }
}
