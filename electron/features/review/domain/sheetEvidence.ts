import type { DetectorHit, DimensionItem, DuplicateGroup, EntitySummary, TextItem } from './evidence';
import type { Frame } from './frame';
import { bboxCenter, pointInBox, type Point } from './geometry';

/** What one paper layout's sheet shows: its own entities plus model space seen through its viewports (locations on the sheet). */
export interface SheetData {
  entities: EntitySummary[];
  texts: TextItem[];
  /** Dimensions drawn on the sheet and those its viewports show (positions on the sheet). */
  dimensions: DimensionItem[];
  /** Detector hits among the layout's own entities (model space's are found drawing-wide and placed through the viewports). */
  zeroLength?: DetectorHit[];
  duplicates?: DuplicateGroup[];
}

/** What a paper frame's evidence holds: the sheet's share plus the detector hits on it, located on the sheet. */
export interface SheetFrameEvidence extends SheetData {
  zeroLength: DetectorHit[];
  duplicates: DuplicateGroup[];
}

/** Model-space identity of an item seen through a viewport (the same entity seen twice is one entity). */
function modelKey(handle: string, type: string): string {
  return `${type}|${handle}`;
}

/**
 * Which frame reviews each model-space entity shown on sheets: a model-space frame that contains
 * it, else the first paper-layout frame (in plan order) whose sheet shows it. Model content
 * placed on several layouts, or seen through two viewports, is reviewed once.
 */
export function modelOwners(modelEntities: readonly EntitySummary[], sheets: Readonly<Record<string, SheetData>>, frames: readonly Frame[]): Map<string, string> {
  const owners = new Map<string, string>();
  const modelFrames = frames.filter((f) => f.layout.toUpperCase() === 'MODEL');
  for (const e of modelEntities) {
    if (!e.bbox || !e.handle) continue;
    const frame = modelFrames.find((f) => pointInBox(bboxCenter(e.bbox as NonNullable<EntitySummary['bbox']>), f.bbox));
    if (frame) owners.set(modelKey(e.handle, e.type), frame.id);
  }
  for (const frame of frames) {
    const sheet = sheets[frame.layout];
    if (!sheet || frame.layout.toUpperCase() === 'MODEL') continue;
    for (const e of sheet.entities) {
      if (e.space !== 'model' || !e.bbox || !e.handle) continue;
      const key = modelKey(e.handle, e.type);
      if (!owners.has(key) && pointInBox(bboxCenter(e.bbox), frame.bbox)) owners.set(key, frame.id);
    }
  }
  return owners;
}

/**
 * Evidence of a paper-layout frame from its sheet: the layout's own entities and texts in the
 * frame, plus the model-space ones its viewports show there that this frame owns (modelOwners);
 * locations are sheet coordinates, model coordinates ride along (modelBbox, modelPosition).
 */
export function sheetFrameEvidence(
  sheet: SheetData,
  frame: Frame,
  owners: ReadonlyMap<string, string>,
  ours: (layer: string) => boolean,
  detectors: { zeroLength: readonly DetectorHit[]; duplicates: readonly DuplicateGroup[] } = { zeroLength: [], duplicates: [] },
): SheetFrameEvidence {
  const owned = (handle: string, type: string): boolean => !handle || owners.get(modelKey(handle, type)) === frame.id;
  const seen = new Set<string>();
  const entities = sheet.entities.filter((e) => {
    if (ours(e.layer) || !e.bbox || !pointInBox(bboxCenter(e.bbox), frame.bbox)) return false;
    if (e.space !== 'model') return true;
    const key = modelKey(e.handle, e.type);
    if (!owned(e.handle, e.type) || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  const entityTypes = new Map(sheet.entities.filter((e) => e.space === 'model').map((e) => [e.handle, e.type]));
  const texts = sheet.texts.filter((t) => !ours(t.layer) && pointInBox(t.position, frame.bbox) && (t.space !== 'model' || owned(t.handle, entityTypes.get(t.handle) ?? '')));
  const dimensions = sheet.dimensions.filter((d) => !ours(d.layer) && d.position !== null && pointInBox(d.position, frame.bbox) && (d.space !== 'model' || owned(d.handle, entityTypes.get(d.handle) ?? 'DIMENSION')));
  // Detector hits are found drawing-wide; on a sheet they are where the sheet shows their entity.
  const onSheet = new Map<string, Point>();
  for (const e of entities) if (e.bbox) onSheet.set(`${e.type}|${e.handle}`, bboxCenter(e.bbox));
  const zeroLength = detectors.zeroLength.flatMap((hit) => {
    const at = onSheet.get(modelKey(hit.handle, hit.type));
    return at ? [{ ...hit, location: at }] : [];
  });
  const duplicates = detectors.duplicates.flatMap((group) => {
    const at = onSheet.get(modelKey(group.handles[0]!, group.type));
    return at ? [{ ...group, location: at }] : [];
  });
  return { entities, texts, dimensions, zeroLength, duplicates };
}
