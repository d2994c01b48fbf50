import type { RuleParams } from '../checklist';
import type { DrawingListIssue } from '../drawingList';
import type { FindingLocation } from '../finding';
import { draftFor, say, type DrawingRule, type ReviewLocale } from './context';

type ParamsOf<R extends RuleParams['rule']> = Extract<RuleParams, { rule: R }>;

function describe(locale: ReviewLocale, issue: DrawingListIssue): string {
  switch (issue.kind) {
    case 'missing':
      return say(locale, `图纸目录列出的 ${issue.drawingNo}（${issue.listedTitle || '无图名'}）在本套图纸中找不到。`, `The drawing list lists ${issue.drawingNo} (${issue.listedTitle || 'no title'}), which is not among the sheets.`);
    case 'extra':
      return say(locale, `图纸 ${issue.drawingNo}（${issue.title ?? '无图名'}）未列入图纸目录。`, `Sheet ${issue.drawingNo} (${issue.title ?? 'no title'}) is not in the drawing list.`);
    case 'title':
      return say(locale, `图纸目录中 ${issue.drawingNo} 的图名为“${issue.listedTitle}”，图纸标题栏为“${issue.sheetTitle}”。`, `The drawing list titles ${issue.drawingNo} "${issue.listedTitle}", its title block says "${issue.sheetTitle}".`);
  }
}

function note(locale: ReviewLocale, issue: DrawingListIssue): string {
  switch (issue.kind) {
    case 'missing':
      return say(locale, `目录所列 ${issue.drawingNo} 缺图`, `${issue.drawingNo} listed, sheet missing`);
    case 'extra':
      return say(locale, `${issue.drawingNo} 未列入目录`, `${issue.drawingNo} not in the list`);
    case 'title':
      return say(locale, `图名与目录不符`, `Title differs from the list`);
  }
}

const locationOf = (issue: DrawingListIssue): FindingLocation => (issue.kind === 'extra' ? { kind: 'bbox', bbox: issue.at } : { kind: 'point', point: issue.at });

/**
 * SET-002: every 图纸目录 of the drawing against the sheets present (missing, extra, mistitled).
 * One finding per issue; the review groups them into one finding per drawing with every place.
 */
export const drawingListRule: DrawingRule<ParamsOf<'drawing_list'>> = (item, _params, { drawing, locale, annotationLocale }) =>
  (drawing.drawingLists ?? []).flatMap((list) =>
    list.issues.map((issue) =>
      draftFor(item, null, {
        message: describe(locale, issue),
        evidenceRefs: ['tool:get_texts', `titleblock:${list.frameId}/title`, ...(issue.kind === 'missing' ? [] : [`titleblock:${issue.frameId}/drawingNo`])],
        location: locationOf(issue),
        handles: [],
        discriminator: `${issue.kind}:${issue.drawingNo}`,
        annotationText: note(annotationLocale, issue),
      }),
    ),
  );
