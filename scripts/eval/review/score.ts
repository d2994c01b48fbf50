// Precision and recall per rule and per space over labelled units. A unit is one sheet (the
// review frame that lies on it) or one file (its drawing-level findings). For every rule and
// unit: fired and labelled = true positive, fired and not labelled = false positive, labelled
// and not fired = false negative. A grouped finding counts once: it is one finding on its sheet.
export type Space = 'model' | 'paper';

export interface UnitOutcome {
  /** "file#sheet" or "file#drawing". */
  unit: string;
  space: Space;
  expected: readonly string[];
  fired: readonly string[];
}

export interface RuleScore {
  rule: string;
  tp: number;
  fp: number;
  fn: number;
  /** null when the rule never fired (no precision to tell). */
  precision: number | null;
  /** null when no unit is labelled with the rule (no recall to tell). */
  recall: number | null;
  /** Units behind each miss and false alarm, to look at. */
  misses: string[];
  falseAlarms: string[];
}

const ratio = (a: number, b: number): number | null => (b === 0 ? null : Math.round((a / b) * 1000) / 1000);

export function scoreRules(outcomes: readonly UnitOutcome[], rules: readonly string[]): RuleScore[] {
  return rules.map((rule) => {
    const score: RuleScore = { rule, tp: 0, fp: 0, fn: 0, precision: null, recall: null, misses: [], falseAlarms: [] };
    for (const o of outcomes) {
      const expected = o.expected.includes(rule);
      const fired = o.fired.includes(rule);
      if (expected && fired) score.tp++;
      else if (fired) {
        score.fp++;
        score.falseAlarms.push(o.unit);
      } else if (expected) {
        score.fn++;
        score.misses.push(o.unit);
      }
    }
    score.precision = ratio(score.tp, score.tp + score.fp);
    score.recall = ratio(score.tp, score.tp + score.fn);
    return score;
  });
}

/** Scores per space: the same rules over the model-space units and over the paper-space units. */
export function scoreBySpace(outcomes: readonly UnitOutcome[], rules: readonly string[]): Record<Space, RuleScore[]> {
  return {
    model: scoreRules(outcomes.filter((o) => o.space === 'model'), rules),
    paper: scoreRules(outcomes.filter((o) => o.space === 'paper'), rules),
  };
}

/** Whether a rule meets the deterministic targets (precision ≥ 0.95, recall ≥ 0.90); null scores count as met. */
export function meetsTarget(score: RuleScore, precision = 0.95, recall = 0.9): boolean {
  return (score.precision === null || score.precision >= precision) && (score.recall === null || score.recall >= recall);
}

/** The rule items that fired on each unit, matching frames to labelled sheets by where they lie. */
export interface FrameLike {
  id: string;
  layout: string;
  bbox: { minX: number; minY: number; maxX: number; maxY: number };
}

export interface SheetLike {
  layout: string;
  box: { minX: number; minY: number; maxX: number; maxY: number };
}

/** Index of the sheet a frame stands for (its centre on the sheet, same layout), or -1. */
export function sheetOfFrame(frame: FrameLike, sheets: readonly SheetLike[]): number {
  const cx = (frame.bbox.minX + frame.bbox.maxX) / 2;
  const cy = (frame.bbox.minY + frame.bbox.maxY) / 2;
  return sheets.findIndex((s) => s.layout.toUpperCase() === frame.layout.toUpperCase() && cx >= s.box.minX && cx <= s.box.maxX && cy >= s.box.minY && cy <= s.box.maxY);
}
