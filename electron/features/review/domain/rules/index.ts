import type { Checklist, RuleChecklistItem } from '../checklist';
import type { FindingDraft } from '../finding';
import { duplicateEntitiesRule, layerZeroRule, outsideFramesRule, zeroLengthRule } from './entityRules';
import { textHeightSeriesRule } from './textRules';
import { dimensionOverrideRule } from './dimensionRule';
import { sheetSizeRule, titleBlockFieldsRule } from './sheetRules';
import type { DrawingRuleContext, FrameRuleContext } from './context';

export type { DrawingRuleContext, FrameRuleContext, ReviewLocale } from './context';
export { drawingLocale, frameUnitsPerPaperMm, isPreferredScaleFactor } from './context';
export { overrideValue, statedValue } from './dimensionRule';

/** Runs one rule item against one frame (drawing-level rules yield nothing here). */
function evaluateFrameItem(item: RuleChecklistItem, context: FrameRuleContext): FindingDraft[] {
  const params = item.params;
  switch (params.rule) {
    case 'zero_length':
      return zeroLengthRule(item, params, context);
    case 'duplicate_entities':
      return duplicateEntitiesRule(item, params, context);
    case 'layer_zero_geometry':
      return layerZeroRule(item, params, context);
    case 'text_height_series':
      return textHeightSeriesRule(item, params, context);
    case 'dimension_override':
      return dimensionOverrideRule(item, params, context);
    case 'title_block_fields':
      return titleBlockFieldsRule(item, params, context);
    case 'sheet_size':
      return sheetSizeRule(item, params, context);
    case 'entities_outside_frames':
      return [];
  }
}

function ruleItems(checklist: Checklist): RuleChecklistItem[] {
  return checklist.items.filter((item): item is RuleChecklistItem => item.mode === 'rule');
}

/** All rule findings of one frame: evidence in, drafts out (pure). */
export function evaluateFrameRules(checklist: Checklist, context: FrameRuleContext): FindingDraft[] {
  return ruleItems(checklist).flatMap((item) => evaluateFrameItem(item, context));
}

/** Rule findings about the drawing as a whole (e.g. entities outside every frame). */
export function evaluateDrawingRules(checklist: Checklist, context: DrawingRuleContext): FindingDraft[] {
  return ruleItems(checklist).flatMap((item) => (item.params.rule === 'entities_outside_frames' ? outsideFramesRule(item, item.params, context) : []));
}
