import type { RuleParams } from '../checklist';
import { boxOfPoints, type BBox } from '../geometry';
import type { DetectorHit, DuplicateGroup, EntitySummary } from '../evidence';
import { draftFor, say, typeName, type DrawingRule, type FrameRule, type ReviewLocale } from './context';
import { entityLabel, isFingerprint } from '../entityKey';

type ParamsOf<R extends RuleParams['rule']> = Extract<RuleParams, { rule: R }>;

/** Evidence refs are capped so one systematic problem cannot blow up the report. */
const MAX_HANDLE_REFS = 50;

function unionBox(entities: readonly EntitySummary[]): BBox | undefined {
  const corners = entities.flatMap((e) => (e.bbox ? [{ x: e.bbox.minX, y: e.bbox.minY }, { x: e.bbox.maxX, y: e.bbox.maxY }] : []));
  return boxOfPoints(corners);
}

/** One finding per zero-length entity, on `frameId` (null: the drawing, for entities no sheet shows). */
function zeroLengthDrafts(item: Parameters<FrameRule<ParamsOf<'zero_length'>>>[0], frameId: string | null, hits: readonly DetectorHit[], locale: ReviewLocale, annotationLocale: ReviewLocale) {
  return hits.map((hit) =>
    draftFor(item, frameId, {
      message: say(locale, `零长度${typeName(locale, hit.type)}（${entityLabel(locale, hit.handle, hit.location)}），应删除。`, `Zero-length ${hit.type} (${entityLabel(locale, hit.handle, hit.location)}); delete it.`),
      evidenceRefs: ['tool:find_zero_length', `entity:${hit.handle}`],
      location: { kind: 'point', point: hit.location },
      handles: [hit.handle],
      annotationText: say(annotationLocale, `零长度${typeName(annotationLocale, hit.type)}，请删除`, `Zero-length ${hit.type}: delete`),
    }),
  );
}

/** One finding per group of exactly overlapping entities, on `frameId` (null: the drawing). */
function duplicateDrafts(item: Parameters<FrameRule<ParamsOf<'duplicate_entities'>>>[0], frameId: string | null, groups: readonly DuplicateGroup[], locale: ReviewLocale, annotationLocale: ReviewLocale) {
  return groups.map((group) => {
    const extra = group.handles.slice(1).join(', ');
    const named = !group.handles.some(isFingerprint);
    const place = entityLabel(locale, group.handles[0]!, group.location);
    return draftFor(item, frameId, {
      message: named
        ? say(
            locale,
            `重复${typeName(locale, group.type)}：句柄 ${group.handles.join('、')} 完全重叠，保留 ${group.handles[0]}，删除 ${extra}。`,
            `Duplicate ${group.type}: handles ${group.handles.join(', ')} overlap exactly; keep ${group.handles[0]}, delete ${extra}.`,
          )
        : say(
            locale,
            `${group.handles.length} 个${typeName(locale, group.type)}完全重叠（${place}），保留一个，删除其余 ${group.handles.length - 1} 个。`,
            `${group.handles.length} ${group.type} entities overlap exactly (${place}); keep one, delete the other ${group.handles.length - 1}.`,
          ),
      evidenceRefs: ['tool:find_duplicate_entities', ...group.handles.map((h) => `entity:${h}`)],
      location: { kind: 'point', point: group.location },
      handles: group.handles,
      annotationText: say(annotationLocale, `重复${typeName(annotationLocale, group.type)}，请删除多余的一份`, `Duplicate ${group.type}: delete the extra copy`),
    });
  });
}

export const zeroLengthRule: FrameRule<ParamsOf<'zero_length'>> = (item, _params, { frame, evidence, locale, annotationLocale }) => zeroLengthDrafts(item, frame.id, evidence.zeroLength, locale, annotationLocale);

export const duplicateEntitiesRule: FrameRule<ParamsOf<'duplicate_entities'>> = (item, _params, { frame, evidence, locale, annotationLocale }) => duplicateDrafts(item, frame.id, evidence.duplicates, locale, annotationLocale);

/** Zero-length entities that no sheet shows (geometry rules run on every entity of the drawing). */
export const unshownZeroLengthRule: DrawingRule<ParamsOf<'zero_length'>> = (item, _params, { drawing, locale, annotationLocale }) => zeroLengthDrafts(item, null, drawing.outsideZeroLength ?? [], locale, annotationLocale);

/** Duplicates that no sheet shows (geometry rules run on every entity of the drawing). */
export const unshownDuplicatesRule: DrawingRule<ParamsOf<'duplicate_entities'>> = (item, _params, { drawing, locale, annotationLocale }) => duplicateDrafts(item, null, drawing.outsideDuplicates ?? [], locale, annotationLocale);

export const layerZeroRule: FrameRule<ParamsOf<'layer_zero_geometry'>> = (item, params, { frame, evidence, locale, annotationLocale }) => {
  const ignored = new Set(params.ignoreTypes.map((t) => t.toUpperCase()));
  const onZero = evidence.entities.filter((e) => e.layer === '0' && !ignored.has(e.type.toUpperCase()));
  if (onZero.length === 0) return [];
  const box = unionBox(onZero) ?? frame.bbox;
  const types = [...new Set(onZero.map((e) => typeName(locale, e.type)))].join(locale === 'zh-CN' ? '、' : ', ');
  return [
    draftFor(item, frame.id, {
      message: say(
        locale,
        `${onZero.length} 个图元（${types}）画在 0 层上，应移到相应图层。`,
        `${onZero.length} entities (${types}) are on layer 0; move them to their proper layers.`,
      ),
      evidenceRefs: ['tool:get_entities', ...onZero.slice(0, MAX_HANDLE_REFS).map((e) => `entity:${e.handle}`)],
      location: { kind: 'bbox', bbox: box },
      handles: onZero.map((e) => e.handle),
      annotationText: say(annotationLocale, `${onZero.length} 个图元在 0 层`, `${onZero.length} entities on layer 0`),
    }),
  ];
};

export const outsideFramesRule: DrawingRule<ParamsOf<'entities_outside_frames'>> = (item, params, { frames, drawing, locale, annotationLocale }) => {
  // Without a detected frame the whole drawing is the frame: nothing can lie outside it.
  if (frames.every((f) => f.origin !== 'detected')) return [];
  const ignoredLayers = new Set(params.ignoreLayers);
  const outside = drawing.outsideFrames.filter((e) => !ignoredLayers.has(e.layer));
  if (outside.length === 0) return [];
  const box = unionBox(outside);
  if (!box) return [];
  return [
    draftFor(item, null, {
      message: say(
        locale,
        `${outside.length} 个图元位于所有图框之外，不会被打印。`,
        `${outside.length} entities lie outside every frame and will not be printed.`,
      ),
      evidenceRefs: ['tool:find_frames', 'tool:get_entities', ...outside.slice(0, MAX_HANDLE_REFS).map((e) => `entity:${e.handle}`)],
      location: { kind: 'bbox', bbox: box },
      handles: outside.map((e) => e.handle),
      annotationText: say(annotationLocale, `${outside.length} 个图元在图框外`, `${outside.length} entities outside the frames`),
    }),
  ];
};
