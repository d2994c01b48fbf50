import { useEffect, useState, type DragEvent } from 'react';
import { useApp, useT } from '../../store/StoreContext';
import { DrawingPanel } from './DrawingPanel';
import { NewReviewForm } from './NewReviewForm';
import { RunList } from './RunList';
import { RunView } from './RunView';
import { droppedFiles } from './dropFiles';
import { SetPanel, setName } from './SetPanel';
import { SetView } from './SetView';
import { SourcePanel } from './SourcePanel';
import './review.css';

/**
 * CadSight's main screen: the drawing (sample, DXF, AutoCAD) and its frames, new review, runs,
 * and the selected run's frames, markers, findings and write-back; drawing sets. A DXF dropped
 * anywhere opens; several files or a folder dropped become a drawing set.
 */
export function ReviewView() {
  const t = useT();
  const ready = useApp((s) => s.reviewReady);
  const run = useApp((s) => s.run);
  const initReview = useApp((s) => s.initReview);
  const startupError = useApp((s) => s.startupError);
  const openDxfFile = useApp((s) => s.openDxfFile);
  const drawingSet = useApp((s) => s.set);
  const createSet = useApp((s) => s.createSet);
  const selectRun = useApp((s) => s.selectRun);
  const [dragging, setDragging] = useState(false);
  // Below 1400 px a run needs the whole width for drawing | findings: the side column folds away
  // while a run is open (a button brings it back).
  const [sideFolded, setSideFolded] = useState(() => typeof window !== 'undefined' && window.innerWidth < 1400);
  const folded = run !== null && sideFolded;
  useEffect(() => {
    void initReview();
  }, [initReview]);

  const onDrop = (event: DragEvent<HTMLElement>): void => {
    event.preventDefault();
    setDragging(false);
    void droppedFiles(event.dataTransfer).then(({ files, folder }) => {
      if (folder === null && files.length === 1) void openDxfFile(files[0]!);
      else if (files.length > 0) void createSet(setName(files, folder, t), files);
    });
  };

  return (
    <section
      className={`review${dragging ? ' dragging' : ''}${folded ? ' side-folded' : ''}`}
      data-testid="review-view"
      onDragOver={(e) => {
        e.preventDefault();
        setDragging(true);
      }}
      onDragLeave={(e) => {
        if (e.currentTarget === e.target) setDragging(false);
      }}
      onDrop={onDrop}
    >
      <aside className="review-side" hidden={folded}>
        <SourcePanel />
        <NewReviewForm />
        <SetPanel />
        <RunList />
      </aside>
      <div className="review-main">
        {startupError && (
          <div className="card startup-error" data-testid="review-startup-error" data-code={startupError.code}>
            <p className="form-error">{t('review.startupFailed', { code: startupError.code, message: startupError.message })}</p>
            <button type="button" className="btn-ghost" onClick={() => void initReview()}>
              {t('review.retry')}
            </button>
          </div>
        )}
        {run && (
          <button type="button" className="btn-ghost btn-small side-toggle" aria-expanded={!folded} onClick={() => setSideFolded(!folded)} data-testid="side-toggle">
            {folded ? t('review.side.show') : t('review.side.hide')}
          </button>
        )}
        {run && drawingSet && (
          <button type="button" className="btn-ghost" onClick={() => void selectRun(null)} data-testid="back-to-set">
            {t('reviewSet.back')}
          </button>
        )}
        {!ready ? <p className="hint">{t('review.loading')}</p> : run ? <RunView /> : drawingSet ? <SetView /> : <DrawingPanel />}
      </div>
      {dragging && <div className="drop-overlay">{t('review.source.dropNow')}</div>}
    </section>
  );
}
