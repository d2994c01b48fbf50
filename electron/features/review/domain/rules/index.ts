import type { Checklist, RuleChecklistItem } from '../checklist';
import type { FindingDraft } from '../finding';
import { duplicateEntitiesRule, layerZeroRule, outsideFramesRule, unshownDuplicatesRule, unshownZeroLengthRule, zeroLengthRule } from './entityRules';
import { textHeightSeriesRule } from './textRules';
import { dimensionOverrideRule } from './dimensionRule';
import { sheetSizeRule, titleBlockFieldsRule } from './sheetRules';
import { dimensionDisplayRule, dimensionTextHeightRule, frameWithoutDimensionsRule } from './dimensionRules';
import { layerLinetypeRule } from './layerRules';
import { letteringRule } from './letteringRule';
import { scaleConsistencyRule } from './scaleRule';
import { titleBlockGbRule } from './titleBlockGbRule';
import { circleCentreMarksRule } from './centreMarkRule';
import { centringMarksRule } from './centringMarksRule';
import { drawingNumbersRule, recoveryProblemsRule } from './drawingRules';
import { drawingListRule } from './drawingListRule';
import type { DrawingRuleContext, FrameRuleContext } from './context';

export type { DrawingRuleContext, FrameRuleContext, ReviewLocale } from './context';
export { drawingLocale, frameUnitsPerPaperMm, isPreferredScaleFactor } from './context';
export { overrideValue, statedValue } from './dimensionRule';
export { describeNumberingIssue, numberingIssues, type NumberingIssue, type SheetRef } from './numbering';

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
    case 'dimension_display':
      return dimensionDisplayRule(item, params, context);
    case 'layer_linetypes':
      return layerLinetypeRule(item, params, context);
    case 'lettering':
      return letteringRule(item, params, context);
    case 'scale_consistency':
      return scaleConsistencyRule(item, params, context);
    case 'title_block_gb':
      return titleBlockGbRule(item, params, context);
    case 'frame_without_dimensions':
      return frameWithoutDimensionsRule(item, params, context);
    case 'circle_centre_marks':
      return circleCentreMarksRule(item, params, context);
    case 'centring_marks':
      return centringMarksRule(item, params, context);
    case 'dimension_text_height':
      return dimensionTextHeightRule(item, params, context);
    case 'entities_outside_frames':
    case 'drawing_numbers':
    case 'drawing_list':
    case 'recovery_problems':
      return [];
  }
}

/** Runs one drawing-level rule item (frame rules yield nothing here). */
function evaluateDrawingItem(item: RuleChecklistItem, context: DrawingRuleContext): FindingDraft[] {
  const params = item.params;
  switch (params.rule) {
    case 'zero_length':
      return unshownZeroLengthRule(item, params, context);
    case 'duplicate_entities':
      return unshownDuplicatesRule(item, params, context);
    case 'entities_outside_frames':
      return outsideFramesRule(item, params, context);
    case 'drawing_numbers':
      return drawingNumbersRule(item, params, context);
    case 'drawing_list':
      return drawingListRule(item, params, context);
    case 'recovery_problems':
      return recoveryProblemsRule(item, params, context);
    default:
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

/** Rule findings about the drawing as a whole (entities outside every frame and their zero-length/duplicate ones, drawing numbers, recovery). */
export function evaluateDrawingRules(checklist: Checklist, context: DrawingRuleContext): FindingDraft[] {
  return ruleItems(checklist).flatMap((item) => evaluateDrawingItem(item, context));
}
