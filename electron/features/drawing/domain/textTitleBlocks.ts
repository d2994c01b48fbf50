import { emptyBox, extendBox } from './geometry';
import type { Box } from './model';
import { labelOf, textBox, type TitleField } from './titleBlock';
import type { Primitive } from './world';

type TextPrimitive = Extract<Primitive, { kind: 'text' }>;

/** Distinct field labels that make a cluster of texts a title block (图名, 图号, 比例 ...). */
const MIN_FIELDS = 3;
/** Labels further apart than this many text heights belong to different clusters. */
const LINK_HEIGHTS = 30;

/**
 * Title blocks drawn as plain lines and texts (no block insert, no sheet-shaped border): clusters
 * of at least three different field labels. The box covers the labels and the value cells to
 * their right and below (a few text heights), so the title-block reader finds the values.
 */
export function findTextTitleBlocks(texts: readonly TextPrimitive[]): Box[] {
  const labels = texts.flatMap((t) => {
    const field = t.tag === undefined ? labelOf(t.text) : undefined;
    return field && t.height > 0 ? [{ t, field, box: textBox(t) }] : [];
  });
  const clusters: (typeof labels)[] = [];
  for (const label of labels) {
    const near = clusters.filter((c) => c.some((o) => Math.hypot(o.t.at.x - label.t.at.x, o.t.at.y - label.t.at.y) <= LINK_HEIGHTS * Math.max(o.t.height, label.t.height)));
    const merged = near.flat();
    merged.push(label);
    for (const c of near) clusters.splice(clusters.indexOf(c), 1);
    clusters.push(merged);
  }
  return clusters
    .filter((c) => new Set<TitleField>(c.map((l) => l.field)).size >= MIN_FIELDS)
    .map((c) => {
      const h = Math.max(...c.map((l) => l.t.height));
      const box = emptyBox();
      for (const l of c) {
        extendBox(box, { x: l.box.minX, y: l.box.minY });
        extendBox(box, { x: l.box.maxX, y: l.box.maxY });
      }
      return { minX: box.minX - h, minY: box.minY - 3 * h, maxX: box.maxX + 12 * h, maxY: box.maxY + h };
    });
}
