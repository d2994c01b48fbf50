import { useMemo } from 'react';
import { useApp, useT } from '../../store/StoreContext';
import { DownloadButton } from './DownloadButton';
import { FindingsPanel } from './FindingsPanel';
import { FrameDetail, LiveFrameDetail } from './FrameDetail';
import { SplitPane } from './SplitPane';
import { layoutTabs } from './viewer/layoutTabs';
import { baseName, WriteDialog } from './WriteDialog';

const SEVERITIES = ['blocking', 'major', 'minor', 'info'] as const;
const PHASES = ['plan', 'evidence', 'frames', 'report'] as const;
const isPhase = (phase: string): phase is (typeof PHASES)[number] => (PHASES as readonly string[]).includes(phase);

/** One review run: progress and cancel, frames with status and counts, the frame with markers, findings, write. */
export function RunView() {
  const t = useT();
  const run = useApp((s) => s.run);
  const progress = useApp((s) => s.progress);
  const selectedFrameId = useApp((s) => s.selectedFrameId);
  const selectFrame = useApp((s) => s.selectFrame);
  const cancelRun = useApp((s) => s.cancelRun);
  const previewWrite = useApp((s) => s.previewWrite);
  const drawing = useApp((s) => s.drawing);
  const numbers = useMemo(() => new Map((run?.findings ?? []).map((f, i) => [f.id, i + 1])), [run?.findings]);
  if (!run) return null;
  const summary = run.run;
  const running = summary.status === 'running';
  const ownProgress = progress?.runId === summary.id ? progress : null;
  const frame = run.frames.find((f) => f.frame.id === selectedFrameId) ?? run.frames[0];
  const approved = run.findings.filter((f) => f.annotation.state === 'approved' || f.annotation.state === 'edited').length;
  const written = run.findings.filter((f) => f.annotation.state === 'written').length;
  // The live viewer needs the run's drawing open; an older run of another drawing shows its stored pictures.
  const live = drawing !== null && drawing.source.label === summary.source;
  const frameFindings = frame ? run.findings.filter((f) => f.frameId === frame.frame.id) : [];

  return (
    <div className="run-view" data-testid="run-view" data-status={summary.status}>
      <div className="run-head">
        <div>
          <h1 title={summary.source}>{summary.source}</h1>
          <div className="provider-meta">
            <span className={`pill status-${summary.status}`} data-testid="run-status">
              {t(`review.status.${summary.status}`)}
            </span>
            {SEVERITIES.map((s) => (
              <span key={s} className={`pill sev-${s}`}>
                {t(`review.severity.${s}`)} {summary.bySeverity[s]}
              </span>
            ))}
            <span>{t('review.run.written', { written, approved })}</span>
          </div>
        </div>
        <div className="run-actions">
          {running && (
            <button type="button" className="btn-ghost danger" onClick={() => void cancelRun(summary.id)} data-testid="run-cancel">
              {t('review.run.cancel')}
            </button>
          )}
          <button type="button" className="btn-primary" disabled={running || approved === 0} onClick={() => void previewWrite()} data-testid="write-open">
            {t('review.run.write', { count: approved })}
          </button>
        </div>
      </div>
      {/* Said once per change by screen readers: the run's status and how many findings it has. */}
      <p className="visually-hidden" role="status" aria-live="polite" data-testid="run-announce">
        {t('review.run.announce', { status: t(`review.status.${summary.status}`), count: summary.findings })}
      </p>
      {(running || ownProgress) && (
        <div className="progress" data-testid="run-progress" role="status" aria-live="polite">
          <div className="progress-track">
            <div className="progress-fill" style={{ width: `${ownProgress && ownProgress.total > 0 ? Math.round((ownProgress.done / ownProgress.total) * 100) : 0}%` }} />
          </div>
          <span className="hint">{ownProgress ? t('review.run.progress', { phase: isPhase(ownProgress.phase) ? t(`review.phase.${ownProgress.phase}`) : ownProgress.phase, done: ownProgress.done, total: ownProgress.total }) : t('review.run.starting')}</span>
        </div>
      )}
      {summary.error && (
        // A failed run is an alert; a run that completed with errors is announced politely.
        <p className="form-error" role={summary.status === 'failed' ? 'alert' : 'status'} data-testid="run-error">
          {summary.status === 'completed_with_errors' ? t('review.run.partial', { message: summary.error.message }) : t('review.run.failed', { code: summary.error.code, message: summary.error.message })}
        </p>
      )}
      {(run.report || run.savedDrawing) && (
        // File names only (the full path in the tooltip): the run's files download from here.
        <p className="hint run-files">
          {run.report && (
            <span data-testid="report-paths">
              {t('review.run.report')}{' '}
              <span className="mono" title={run.report.markdown}>
                {baseName(run.report.markdown)}
              </span>{' '}
              <DownloadButton kind="markdown" label={t('review.download.markdown')} />{' '}
              <DownloadButton kind="json" label={t('review.download.json')} />
            </span>
          )}
          {run.savedDrawing && (
            <span className="ok" data-testid="saved-drawing">
              {t('review.run.saved')}{' '}
              <span className="mono" title={run.savedDrawing}>
                {baseName(run.savedDrawing)}
              </span>{' '}
              <DownloadButton kind="dxf" label={t('review.download.dxf')} />
            </span>
          )}
        </p>
      )}
      <ul className="frame-list" data-testid="run-frames" aria-label={t('review.run.frames')}>
        {run.frames.map((f) => (
          <li key={f.frame.id}>
            <button type="button" className={`frame-row${f.frame.id === frame?.frame.id ? ' active' : ''}`} aria-pressed={f.frame.id === frame?.frame.id} onClick={() => selectFrame(f.frame.id)} data-testid={`run-frame-${f.frame.id}`} data-status={f.status}>
              <strong>{f.frame.titleBlock.title || f.frame.label}</strong>
              <span className="hint">
                {t(`review.frameStatus.${f.status}`)}
                {f.frame.sheetName ? ` · ${f.frame.sheetName}` : ''}
              </span>
              <span className="frame-counts">
                {SEVERITIES.filter((s) => f.counts[s] > 0).map((s) => (
                  <span key={s} className={`pill sev-${s}`} title={t(`review.severity.${s}`)}>
                    {f.counts[s]}
                  </span>
                ))}
              </span>
            </button>
          </li>
        ))}
      </ul>
      <SplitPane
        testId="run-split"
        label={t('review.split.label')}
        start={
          <div className="run-frame">
            {!frame ? (
              <p className="hint">{t('review.frame.none')}</p>
            ) : live && frame.status !== 'failed' ? (
              <LiveFrameDetail frame={frame} findings={frameFindings} numbers={numbers} layouts={layoutTabs(drawing)} />
            ) : (
              <FrameDetail frame={frame} findings={frameFindings} numbers={numbers} />
            )}
          </div>
        }
        end={<FindingsPanel run={run} numbers={numbers} frameId={frame?.frame.id ?? null} />}
      />
      <WriteDialog />
    </div>
  );
}
