import { useEffect, useRef, useState } from 'react';
import { useApp, useT } from '../../store/StoreContext';
import { frameImageKey, type DrawingOverview } from '../../store/reviewSlice';
import { DrawingViewer } from './viewer/DrawingViewer';
import { EntityInspector } from './viewer/EntityInspector';
import { LayerList } from './viewer/LayerList';
import { layoutLabel, layoutTabs } from './viewer/layoutTabs';

type FrameInfo = DrawingOverview['frames'][number];
const TITLE_FIELDS = ['title', 'drawingNo', 'scale', 'designer', 'checker', 'date', 'revision'] as const;
type TitleField = (typeof TITLE_FIELDS)[number];
const isTitleField = (field: string): field is TitleField => (TITLE_FIELDS as readonly string[]).includes(field);

function FrameCard({ frame, onOpen }: { frame: FrameInfo; onOpen: () => void }) {
  const t = useT();
  const image = useApp((s) => s.frameImages[frameImageKey(frame.id, 'thumb')]);
  const load = useApp((s) => s.loadFrameImage);
  useEffect(() => {
    void load(frame.id, 'thumb');
  }, [frame.id, load]);
  return (
    <button type="button" className="frame-card" data-testid={`frame-card-${frame.id}`} onClick={onOpen}>
      <div className="frame-thumb">
        {!image ? (
          <span className="hint">{t('review.drawing.rendering')}</span>
        ) : 'error' in image ? (
          <span className="form-error" data-testid="frame-image-error" data-code={image.error.code}>
            {t('review.drawing.pictureFailed', { code: image.error.code, message: image.error.message })}
          </span>
        ) : (
          <img src={image.url} alt={frame.label} />
        )}
      </div>
      <div className="frame-card-text">
        <strong>{frame.titleBlock.title || frame.label}</strong>
        <span className="hint">
          {[frame.sheetName, frame.titleBlock.drawingNo, layoutLabel(frame.layout, t('review.viewer.modelSpace'))].filter(Boolean).join(' · ')}
        </span>
      </div>
    </button>
  );
}

/** The drawing before a run: header facts, the viewer (layouts, layers, inspector), frames to jump to, layers and tools. */
export function DrawingPanel() {
  const t = useT();
  const drawing = useApp((s) => s.drawing);
  const focus = useApp((s) => s.viewerFocus);
  const focusViewer = useApp((s) => s.focusViewer);
  const viewerRef = useRef<HTMLDivElement>(null);
  const [selected, setSelected] = useState<FrameInfo | null>(null);
  if (!drawing) return <p className="hint">{t('review.drawing.none')}</p>;
  const { info } = drawing;
  const sourceKey = drawing.source.kind === 'cad' ? drawing.source.label : drawing.source.path;
  const frames = drawing.frames;
  return (
    <div className="drawing-panel" data-testid="drawing-panel">
      <div className="drawing-head">
        <h1 title={drawing.source.label}>{drawing.source.label}</h1>
        <div className="provider-meta">
          {info ? (
            <>
              <span>{t('review.drawing.version', { version: info.version ?? '?' })}</span>
              <span>{t('review.drawing.units', { units: info.units ?? '?' })}</span>
              <span>{t('review.drawing.entities', { count: info.entityCount })}</span>
              <span>{t('review.drawing.layouts', { names: info.layouts.map((l) => layoutLabel(l.name, t('review.viewer.modelSpace'))).join(', ') })}</span>
            </>
          ) : (
            <span>{t('review.drawing.noInfo')}</span>
          )}
          <span data-testid="frame-count">{t('review.drawing.frames', { count: frames.length })}</span>
        </div>
        {[...(info?.problems ?? []), ...drawing.warnings].map((w) => (
          <p key={w} className="hint warning">
            {w}
          </p>
        ))}
        {drawing.missingCapabilities.length > 0 && <p className="hint warning">{t('review.drawing.missing', { list: drawing.missingCapabilities.join(', ') })}</p>}
      </div>
      <div className="viewer-layout" ref={viewerRef}>
        {/* Keyed by drawing: another drawing starts with a fresh camera and tile cache. */}
        <DrawingViewer
          key={sourceKey}
          layouts={layoutTabs(drawing)}
          focus={focus}
          overlay={(ctx) =>
            frames
              .filter((f) => f.layout === ctx.layout)
              .map((f) => {
                const r = ctx.boxToScreen(f.bbox);
                return (
                  <div key={f.id} className="viewer-frame" data-testid={`viewer-frame-${f.id}`} style={{ left: `${r.left}px`, top: `${r.top}px`, width: `${r.width}px`, height: `${r.height}px` }}>
                    <span>{f.titleBlock.title || f.label}</span>
                  </div>
                );
              })
          }
        />
        <div className="viewer-side">
          <LayerList />
          <EntityInspector />
        </div>
      </div>
      {selected && frames.includes(selected) && (
        <dl className="title-block" data-testid="frame-title-block">
          {Object.entries(selected.titleBlock).map(([field, value]) => (
            <div key={field}>
              <dt>{isTitleField(field) ? t(`review.titleField.${field}`) : field}</dt>
              <dd>{value || t('review.titleField.empty')}</dd>
            </div>
          ))}
        </dl>
      )}
      <div className="frame-grid" data-testid="frame-grid">
        {frames.map((frame) => (
          // Keyed by drawing too: another drawing may reuse the frame ids (same handles), and its pictures must load.
          <FrameCard
            key={`${sourceKey}/${frame.id}`}
            frame={frame}
            onOpen={() => {
              setSelected(frame);
              focusViewer(frame.layout, frame.bbox);
              viewerRef.current?.scrollIntoView?.({ block: 'nearest' });
            }}
          />
        ))}
      </div>
      <div className="drawing-details">
        <details data-testid="tool-list">
          <summary>{t('review.drawing.tools', { count: drawing.tools.length })}</summary>
          <ul className="tool-list">
            {drawing.tools.map((tool) => (
              <li key={tool.name} title={tool.description}>
                <span className={`pill access-${tool.access}`}>{t(`review.tool.${tool.access}`)}</span> <span className="mono">{tool.name}</span>
              </li>
            ))}
          </ul>
        </details>
      </div>
    </div>
  );
}
