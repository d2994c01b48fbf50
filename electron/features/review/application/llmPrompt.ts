import type { Checklist } from '../domain/checklist';
import { countBy, type FrameEvidence, type ScreenshotRef } from '../domain/evidence';
import type { Frame } from '../domain/frame';

export interface FramePromptInput {
  checklist: Checklist;
  frame: Frame;
  evidence: FrameEvidence;
  images: readonly { ref: ScreenshotRef }[];
  locale: 'zh-CN' | 'en';
  /** Language of the drawing: annotation texts are written into it. */
  annotationLocale: 'zh-CN' | 'en';
  submitTool: string;
}

/**
 * Upper bound of the evidence JSON per frame (characters, ~15k tokens): with at most 1 overview +
 * 9 tiles of ≤1280 px this keeps a frame well inside a 128k-token context.
 */
export const MAX_EVIDENCE_CHARS = 60_000;
const MAX_TEXTS = 600;
const MAX_DIMENSIONS = 300;

const r = (n: number): number => Math.round(n * 1000) / 1000;

/** System and user prompt of a frame plus every evidence ref the model may cite. */
export function buildFramePrompt(input: FramePromptInput): { system: string; user: string; refs: Set<string> } {
  const { frame, evidence, locale } = input;
  const refs = new Set<string>([...evidence.toolCalls]);
  const items = input.checklist.items
    .filter((i) => i.mode === 'llm')
    .map((i) => ({ id: i.id, severity: i.severity, check: locale === 'zh-CN' ? i.description.zh : i.description.en, how: i.mode === 'llm' ? (locale === 'zh-CN' ? i.guidance.zh : i.guidance.en) : '' }));
  for (const e of evidence.entities) refs.add(`entity:${e.handle}`);
  for (const t of evidence.texts) refs.add(`entity:${t.handle}`);
  for (const d of evidence.dimensions) refs.add(`entity:${d.handle}`);
  for (const field of Object.keys(frame.titleBlock)) refs.add(`titleblock:${frame.id}/${field}`);
  for (const image of input.images) refs.add(image.ref.id);
  const texts = evidence.texts.slice(0, MAX_TEXTS).map((t) => ({ handle: t.handle, text: t.text, at: [r(t.position.x), r(t.position.y)], height: r(t.height), layer: t.layer }));
  const dimensions = evidence.dimensions.slice(0, MAX_DIMENSIONS).map((d) => ({
    handle: d.handle,
    kind: d.dimType,
    measured: d.measured ?? d.measurement,
    override: d.textOverride,
    shows: d.blockText,
    at: d.position ? [r(d.position.x), r(d.position.y)] : null,
  }));
  const body = {
    frame: { id: frame.id, label: frame.label, bbox: frame.bbox, sheet: frame.sheetName, unitsPerPaperMm: frame.unitsPerPaperMm, titleBlock: frame.titleBlock },
    screenshots: input.images.map((i) => ({ id: i.ref.id, widthPx: i.ref.widthPx, heightPx: i.ref.heightPx, region: i.ref.region })),
    layers: Object.fromEntries(Object.entries(countBy(evidence.entities, (e) => e.layer)).slice(0, 100)),
    texts,
    dimensions,
    truncated: evidence.texts.length > MAX_TEXTS || evidence.dimensions.length > MAX_DIMENSIONS,
  };
  let json = JSON.stringify(body);
  // Shrink the text list until the evidence fits the per-frame budget (screenshots still show them).
  while (json.length > MAX_EVIDENCE_CHARS && body.texts.length > 0) {
    body.texts = body.texts.slice(0, Math.floor(body.texts.length * 0.8));
    body.truncated = true;
    json = JSON.stringify(body);
  }
  const system = [
    'You review one frame of a CAD drawing against checklist items, as a careful drawing checker (GB and ISO practice).',
    'Report only what the evidence shows. You may call the read-only tools offered to confirm details; your budget of calls is limited.',
    `Report findings only by calling ${input.submitTool} once, with frameId "${frame.id}". Use checklistItemId values from the list. Cite evidenceRefs you were given: entity:<handle>, tool:<name>, screenshot ids, titleblock:<frame>/<field>.`,
    'Locations are drawing coordinates {kind:"point",x,y} or {kind:"bbox",...}, or pixels of a screenshot {kind:"pixel",screenshotId,x,y} (origin top-left).',
    'Every finding must cite at least one entity:<handle> (or entity:fp:<fingerprint>) or titleblock field lying at or near its location that confirms it; a screenshot alone is not evidence.',
    `Write message in ${locale === 'zh-CN' ? 'Chinese' : 'English'} and annotationText (written into the drawing) in ${input.annotationLocale === 'zh-CN' ? 'Chinese' : 'English'}.`,
  ].join('\n');
  const user = `Checklist items:\n${JSON.stringify(items)}\n\nFrame evidence:\n${json}\n\nThe images are the screenshots listed above, in order.`;
  return { system, user, refs };
}
