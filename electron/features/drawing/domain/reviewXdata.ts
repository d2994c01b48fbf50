import type { Dialect, HandleAllocator, Tag } from './annotations';
import type { DxfDocument, DxfEntity } from './model';

/**
 * CadSight keeps the id of a written review annotation out of the visible text, as XDATA of the
 * text entity under its own registered application (1001 CADSIGHT_REVIEW, 1000 <id>), so a re-run
 * recognises its annotations while the sheet shows only the note.
 */
export const REVIEW_APP = 'CADSIGHT_REVIEW';

/** Whether the file has an APPID table to register CADSIGHT_REVIEW in (XDATA needs it). */
export function canStoreReviewIds(doc: DxfDocument): boolean {
  return doc.tables.some((t) => t.name.toUpperCase() === 'APPID');
}

/** Whether CADSIGHT_REVIEW is already registered in the APPID table. */
export function hasReviewApp(doc: DxfDocument): boolean {
  const table = doc.tables.find((t) => t.name.toUpperCase() === 'APPID');
  if (!table) return false;
  for (let i = table.start; i < table.end; i++) if (doc.tags.codes[i] === 2 && (doc.tags.values[i] as string).trim().toUpperCase() === REVIEW_APP) return true;
  return false;
}

/** The APPID table entry registering CADSIGHT_REVIEW. */
export function reviewAppTags(d: Dialect, handles: HandleAllocator, appidTableHandle: string | undefined): Tag[] {
  const tags: Tag[] = [[0, 'APPID']];
  if (d.handles) tags.push([5, handles.take()]);
  if (d.subclasses) {
    if (appidTableHandle) tags.push([330, appidTableHandle]);
    tags.push([100, 'AcDbSymbolTableRecord'], [100, 'AcDbRegAppTableRecord']);
  }
  tags.push([2, REVIEW_APP], [70, '0']);
  return tags;
}

/** The XDATA tags carrying a review id (appended at the end of an entity). */
export function reviewIdXdata(id: string): Tag[] {
  return [
    [1001, REVIEW_APP],
    [1000, id],
  ];
}

/** The review id stored in an entity's XDATA, or undefined. */
export function reviewIdOf(doc: DxfDocument, entity: DxfEntity): string | undefined {
  const { codes, values } = doc.tags;
  for (let i = entity.tagStart; i + 1 < entity.tagEnd; i++) {
    if (codes[i] === 1001 && (values[i] as string).trim().toUpperCase() === REVIEW_APP && codes[i + 1] === 1000) return (values[i + 1] as string).trim();
  }
  return undefined;
}
