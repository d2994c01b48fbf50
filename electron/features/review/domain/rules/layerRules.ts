import type { RuleParams } from '../checklist';
import type { EntitySummary } from '../evidence';
import { boxOfPoints } from '../geometry';
import { draftFor, say, type FrameRule } from './context';

type ParamsOf<R extends RuleParams['rule']> = Extract<RuleParams, { rule: R }>;
type Convention = ParamsOf<'layer_linetypes'>['conventions'][number];

/** A user pattern that is not a valid regular expression matches nothing (the checklist schema cannot test it). */
function pattern(source: string): RegExp | undefined {
  try {
    return new RegExp(source, 'i');
  } catch {
    return undefined;
  }
}

/** What is wrong with a layer under its convention, or undefined when it follows it. */
function violation(layer: { lineType: string; lineWeight: number }, convention: Convention, locale: 'zh-CN' | 'en'): string | undefined {
  const kind = locale === 'zh-CN' ? convention.kind.zh : convention.kind.en;
  if (!pattern(convention.lineTypePattern)?.test(layer.lineType)) {
    return say(locale, `线型为 ${layer.lineType}，${kind}图层应使用相应线型`, `linetype ${layer.lineType}, not the one a ${kind} layer needs`);
  }
  if (layer.lineWeight < 0) return undefined;
  const mm = layer.lineWeight / 100;
  if (convention.minLineWeightMm !== undefined && mm < convention.minLineWeightMm) {
    return say(locale, `线宽 ${mm} mm，${kind}应不小于 ${convention.minLineWeightMm} mm`, `lineweight ${mm} mm, a ${kind} needs at least ${convention.minLineWeightMm} mm`);
  }
  if (convention.maxLineWeightMm !== undefined && mm > convention.maxLineWeightMm) {
    return say(locale, `线宽 ${mm} mm，${kind}应不大于 ${convention.maxLineWeightMm} mm`, `lineweight ${mm} mm, a ${kind} needs at most ${convention.maxLineWeightMm} mm`);
  }
  return undefined;
}

/**
 * LAY-002 (GB/T 17450, GB/T 4457.4, GB/T 18229): a layer whose name says what it is for (中心线,
 * CENTER, 虚线, 粗实线 ...) must carry that linetype and lineweight. The first matching convention
 * judges a layer; one finding per layer in each frame that draws on it, at that layer's entities.
 */
export const layerLinetypeRule: FrameRule<ParamsOf<'layer_linetypes'>> = (item, params, { frame, evidence, locale, annotationLocale }) =>
  (evidence.layers ?? []).flatMap((layer) => {
    if (layer.entityCount === 0) return [];
    const convention = params.conventions.find((c) => pattern(c.layerPattern)?.test(layer.name));
    const problem = convention ? violation(layer, convention, locale) : undefined;
    if (!problem) return [];
    const onLayer: EntitySummary[] = evidence.entities.filter((e) => e.layer.toUpperCase() === layer.name.toUpperCase() && e.bbox !== undefined);
    const box = boxOfPoints(onLayer.flatMap((e) => [{ x: e.bbox!.minX, y: e.bbox!.minY }, { x: e.bbox!.maxX, y: e.bbox!.maxY }]));
    if (!box) return [];
    return [
      draftFor(item, frame.id, {
        message: say(locale, `图层“${layer.name}”${problem}（${onLayer.length} 个图元）。`, `Layer "${layer.name}" has ${problem} (${onLayer.length} entities).`),
        evidenceRefs: ['tool:get_layers', ...onLayer.slice(0, 50).map((e) => `entity:${e.handle}`)],
        location: { kind: 'bbox', bbox: box },
        handles: [],
        discriminator: layer.name,
        annotationText: say(annotationLocale, `图层 ${layer.name} 线型/线宽不符`, `Layer ${layer.name}: wrong linetype/lineweight`),
      }),
    ];
  });
