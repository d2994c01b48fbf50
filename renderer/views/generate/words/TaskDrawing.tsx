import { useEffect, useState } from 'react';
import type { GenTaskDetail } from '../../../../shared/ipc/contracts/generation';
import { saveFile } from '../../../shell/saveFile';
import type { GenDrawing, GenDrawingInput } from '../../../store/generationSlice';
import { useApp, useT } from '../../../store/StoreContext';

type Sheet = NonNullable<GenDrawingInput['sheet']>;
type Projection = NonNullable<GenDrawingInput['projection']>;
type SheetLang = NonNullable<GenDrawingInput['lang']>;

const SHEETS: Sheet[] = ['auto', 'A4', 'A3', 'A2'];

/** A blob URL for the host-rendered sheet preview, revoked when it changes or the panel goes. */
function usePreview(taskId: string, drawing: GenDrawing | null): string | null {
  const fetchFile = useApp((s) => s.fetchGenFile);
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!drawing) return undefined;
    let alive = true;
    let made: string | null = null;
    void fetchFile(taskId, drawing.preview).then((bytes) => {
      if (!alive || !bytes) return;
      made = URL.createObjectURL(new Blob([bytes.slice()], { type: 'image/png' }));
      setUrl(made);
    });
    return () => {
      alive = false;
      if (made) URL.revokeObjectURL(made);
      setUrl(null);
    };
  }, [taskId, drawing, fetchFile]);
  return url;
}

/**
 * "Drawing" on a completed task: the GB sheet of the shown revision (sheet size, projection, label
 * language), its preview, the self-review counts and the DXF/PDF downloads. Errors go to the banner.
 */
export function TaskDrawing({ detail }: { detail: GenTaskDetail }) {
  const t = useT();
  const locale = useApp((s) => s.locale);
  const make = useApp((s) => s.makeGenDrawing);
  const fetchFile = useApp((s) => s.fetchGenFile);
  const [open, setOpen] = useState(false);
  const [sheet, setSheet] = useState<Sheet>('auto');
  const [projection, setProjection] = useState<Projection>('first-angle');
  const [lang, setLang] = useState<SheetLang>(locale);
  const [busy, setBusy] = useState(false);
  const [drawing, setDrawing] = useState<GenDrawing | null>(null);
  const taskId = detail.task.taskId;
  const revision = detail.shownRevision;
  const preview = usePreview(taskId, drawing);
  // A drawing belongs to the revision it was made of: another revision shown starts afresh.
  useEffect(() => {
    setDrawing(null);
  }, [taskId, revision]);
  if (detail.task.state !== 'COMPLETED' || !revision) return null;

  const submit = async (): Promise<void> => {
    setBusy(true);
    try {
      const made = await make({ taskId, revision, sheet, projection, lang });
      if (made) setDrawing(made);
    } finally {
      setBusy(false);
    }
  };
  const download = async (name: string, ext: 'dxf' | 'pdf', mimeType: string): Promise<void> => {
    const bytes = await fetchFile(taskId, name);
    if (bytes) saveFile(bytes, `${taskId}-${revision}-drawing.${ext}`, mimeType);
  };

  if (!open) {
    return (
      <button type="button" className="btn-ghost" onClick={() => setOpen(true)} data-testid="gen-drawing-open">
        {t('gen.drawing.open')}
      </button>
    );
  }
  const f = drawing?.findings;
  return (
    <div className="gen-drawing" data-testid="gen-drawing" aria-busy={busy}>
      <h3>{t('gen.drawing.title', { revision })}</h3>
      <div className="cdsl-actions gen-drawing-options">
        <label>
          {t('gen.drawing.sheet')}{' '}
          <select value={sheet} onChange={(e) => setSheet(e.target.value as Sheet)} disabled={busy} data-testid="gen-drawing-sheet">
            {SHEETS.map((s) => (
              <option key={s} value={s}>
                {s === 'auto' ? t('gen.drawing.sheetAuto') : s}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t('gen.drawing.projection')}{' '}
          <select value={projection} onChange={(e) => setProjection(e.target.value as Projection)} disabled={busy} data-testid="gen-drawing-projection">
            <option value="first-angle">{t('gen.drawing.firstAngle')}</option>
            <option value="third-angle">{t('gen.drawing.thirdAngle')}</option>
          </select>
        </label>
        <label>
          {t('gen.drawing.lang')}{' '}
          <select value={lang} onChange={(e) => setLang(e.target.value as SheetLang)} disabled={busy} data-testid="gen-drawing-lang">
            <option value="zh-CN">中文</option>
            <option value="en">English</option>
          </select>
        </label>
        <button type="button" className="btn-primary" disabled={busy} onClick={() => void submit()} data-testid="gen-drawing-make">
          {busy ? t('gen.drawing.making') : t('gen.drawing.make')}
        </button>
        <button type="button" className="btn-ghost" disabled={busy} onClick={() => setOpen(false)}>
          {t('gen.drawing.close')}
        </button>
      </div>
      {drawing && f && (
        <div className="gen-drawing-result" data-testid="gen-drawing-result" data-blocking={drawing.hasBlocking}>
          <p>
            <strong>{t('gen.drawing.summary', { sheet: drawing.sheet, scale: drawing.scale, projection: drawing.projection === 'first-angle' ? t('gen.drawing.firstAngle') : t('gen.drawing.thirdAngle') })}</strong>
          </p>
          <p className={drawing.hasBlocking ? 'gen-drawing-blocking' : 'gen-drawing-passes'} data-testid="gen-drawing-review">
            {t('gen.drawing.review', { total: f.total, blocking: f.blocking, major: f.major, minor: f.minor })} · {drawing.hasBlocking ? t('gen.drawing.blocking') : t('gen.drawing.passes')}
          </p>
          {preview && <img className="gen-drawing-preview" src={preview} alt={t('gen.drawing.preview')} data-testid="gen-drawing-preview" />}
          <details>
            <summary>{t('gen.drawing.claims')}</summary>
            <ul className="gen-drawing-claims">
              {drawing.claims.map((c) => (
                <li key={c.claimId}>
                  <code>{c.claimId}</code> {c.dimensions.length > 0 ? c.dimensions.join(', ') : t('gen.drawing.noDimension', { reason: c.reason ?? '' })}
                </li>
              ))}
            </ul>
          </details>
          <div className="cdsl-actions">
            <button type="button" className="btn-ghost btn-small" onClick={() => void download(drawing.dxf, 'dxf', 'image/vnd.dxf')} data-testid="gen-drawing-dxf">
              {t('gen.drawing.dxf')}
            </button>
            <button type="button" className="btn-ghost btn-small" onClick={() => void download(drawing.pdf, 'pdf', 'application/pdf')} data-testid="gen-drawing-pdf">
              {t('gen.drawing.pdf')}
            </button>
          </div>
        </div>
      )}
    </div>
  );
}
