import { useEffect, useState } from 'react';
import { useApp, useT } from '../../store/StoreContext';
import { frameImageKey, type DrawingOverview } from '../../store/reviewSlice';
import { Modal } from './Modal';
import { PanZoom } from './PanZoom';

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
          {[frame.sheetName, frame.titleBlock.drawingNo, frame.layout].filter(Boolean).join(' · ')}
        </span>
      </div>
    </button>
  );
}

/** The drawing before a run: header facts, frames with pictures (click to enlarge), layers and tools. */
export function DrawingPanel() {
  const t = useT();
  const drawing = useApp((s) => s.drawing);
  const [enlarged, setEnlarged] = useState<FrameInfo | null>(null);
  const image = useApp((s) => (enlarged ? s.frameImages[frameImageKey(enlarged.id, 'full')] : undefined));
  const load = useApp((s) => s.loadFrameImage);
  useEffect(() => {
    if (enlarged) void load(enlarged.id, 'full');
  }, [enlarged, load]);
  if (!drawing) return <p className="hint">{t('review.drawing.none')}</p>;
  const { info } = drawing;
  const sourceKey = drawing.source.kind === 'cad' ? drawing.source.label : drawing.source.path;
  return (
    <div className="drawing-panel" data-testid="drawing-panel">
      <div className="drawing-head">
        <h1>{drawing.source.label}</h1>
        <div className="provider-meta">
          {info ? (
            <>
              <span>{t('review.drawing.version', { version: info.version ?? '?' })}</span>
              <span>{t('review.drawing.units', { units: info.units ?? '?' })}</span>
              <span>{t('review.drawing.entities', { count: info.entityCount })}</span>
              <span>{t('review.drawing.layouts', { names: info.layouts.map((l) => l.name).join(', ') })}</span>
            </>
          ) : (
            <span>{t('review.drawing.noInfo')}</span>
          )}
          <span data-testid="frame-count">{t('review.drawing.frames', { count: drawing.frames.length })}</span>
        </div>
        {[...(info?.problems ?? []), ...drawing.warnings].map((w) => (
          <p key={w} className="hint warning">
            {w}
          </p>
        ))}
        {drawing.missingCapabilities.length > 0 && <p className="hint warning">{t('review.drawing.missing', { list: drawing.missingCapabilities.join(', ') })}</p>}
      </div>
      <div className="frame-grid" data-testid="frame-grid">
        {drawing.frames.map((frame) => (
          // Keyed by drawing too: another drawing may reuse the frame ids (same handles), and its pictures must load.
          <FrameCard key={`${sourceKey}/${frame.id}`} frame={frame} onOpen={() => setEnlarged(frame)} />
        ))}
      </div>
      <div className="drawing-details">
        <details>
          <summary>{t('review.drawing.layers', { count: drawing.layers.length })}</summary>
          <table className="table">
            <thead>
              <tr>
                <th>{t('review.layer.name')}</th>
                <th>{t('review.layer.color')}</th>
                <th>{t('review.layer.state')}</th>
                <th>{t('review.layer.entities')}</th>
              </tr>
            </thead>
            <tbody>
              {drawing.layers.map((layer) => (
                <tr key={layer.name}>
                  <td>{layer.name}</td>
                  <td>{layer.color ?? '—'}</td>
                  <td>{[layer.on ? t('review.layer.on') : t('review.layer.off'), layer.frozen ? t('review.layer.frozen') : '', layer.locked ? t('review.layer.locked') : ''].filter(Boolean).join(', ')}</td>
                  <td>{layer.entityCount ?? '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </details>
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
      {enlarged && (
        <Modal title={enlarged.titleBlock.title || enlarged.label} onClose={() => setEnlarged(null)} wide testId="frame-enlarged">
          {!image ? (
            <p className="hint">{t('review.drawing.rendering')}</p>
          ) : 'error' in image ? (
            <p className="form-error">{t('review.drawing.pictureFailed', { code: image.error.code, message: image.error.message })}</p>
          ) : (
            <PanZoom src={image.url} widthPx={image.widthPx} heightPx={image.heightPx} alt={enlarged.label} className="panzoom-large" />
          )}
          <dl className="title-block">
            {Object.entries(enlarged.titleBlock).map(([field, value]) => (
              <div key={field}>
                <dt>{isTitleField(field) ? t(`review.titleField.${field}`) : field}</dt>
                <dd>{value || t('review.titleField.empty')}</dd>
              </div>
            ))}
          </dl>
        </Modal>
      )}
    </div>
  );
}
