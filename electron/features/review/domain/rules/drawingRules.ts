import type { RuleParams } from '../checklist';
import type { Frame } from '../frame';
import { boxOfPoints, type BBox } from '../geometry';
import { draftFor, say, type DrawingRule } from './context';
import { describeNumberingIssue, numberingIssues } from './numbering';

type ParamsOf<R extends RuleParams['rule']> = Extract<RuleParams, { rule: R }>;

function unionOf(frames: readonly Frame[]): BBox | undefined {
  return boxOfPoints(frames.flatMap((f) => [{ x: f.bbox.minX, y: f.bbox.minY }, { x: f.bbox.maxX, y: f.bbox.maxY }]));
}

/**
 * SET-001 within one drawing: duplicate 图号 among its frames and inconsistent 共 N 张 第 M 张.
 * Completeness (every number 1..N present) is judged by the set report, which sees all files.
 */
export const drawingNumbersRule: DrawingRule<ParamsOf<'drawing_numbers'>> = (item, params, { frames, locale, annotationLocale }) => {
  const detected = frames.filter((f) => f.origin === 'detected');
  const issues = numberingIssues(
    detected.map((f) => ({ key: f.id, drawingNo: f.titleBlock.drawingNo, sheetNo: f.titleBlock.sheetNo, sheetCount: f.titleBlock.sheetCount })),
    { checkSheetNumbering: params.checkSheetNumbering, complete: false },
  );
  return issues.flatMap((issue) => {
    const involved = detected.filter((f) => issue.keys.includes(f.id));
    const box = unionOf(involved);
    if (!box) return [];
    const text = describeNumberingIssue({ ...issue, keys: involved.map((f) => f.label || f.id) }, locale === 'zh-CN');
    return [
      draftFor(item, null, {
        message: text,
        evidenceRefs: ['tool:find_frames', ...involved.map((f) => `titleblock:${f.id}/drawingNo`)],
        location: { kind: 'bbox', bbox: box },
        handles: [],
        discriminator: `${issue.kind}:${issue.keys.join(',')}`,
        annotationText: describeNumberingIssue({ ...issue, keys: involved.map((f) => f.label || f.id) }, annotationLocale === 'zh-CN').slice(0, 60),
      }),
    ];
  });
};

/** DXF-001: what the reader had to repair or skip to load the file — a recovered drawing, said plainly. */
export const recoveryProblemsRule: DrawingRule<ParamsOf<'recovery_problems'>> = (item, params, { frames, drawing, locale, annotationLocale }) => {
  const ignored = new Set(params.ignoreKinds);
  const problems = drawing.problems.filter((p) => !ignored.has(p.kind));
  const box = unionOf(frames);
  if (problems.length === 0 || !box) return [];
  const counts = new Map<string, number>();
  for (const p of problems) counts.set(p.kind, (counts.get(p.kind) ?? 0) + 1);
  const kinds = [...counts].map(([kind, n]) => `${kind} ×${n}`).join(', ');
  const first = problems[0]!.message.slice(0, 200);
  return [
    draftFor(item, null, {
      message: say(locale, `读取 DXF 时修复或跳过了 ${problems.length} 处问题（${kinds}），例如：${first}。请在 CAD 中核查并重新保存。`, `Loading the DXF repaired or skipped ${problems.length} problem(s) (${kinds}), e.g. ${first}. Check the file in the CAD and save it again.`),
      evidenceRefs: ['tool:get_drawing_info'],
      location: { kind: 'point', point: { x: box.minX, y: box.maxY } },
      handles: [],
      annotationText: say(annotationLocale, `DXF 已修复 ${problems.length} 处`, `DXF repaired in ${problems.length} place(s)`),
    }),
  ];
};
