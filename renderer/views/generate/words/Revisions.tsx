import { useState } from 'react';
import type { GenTaskDetail } from '../../../../shared/ipc/contracts/generation';
import { useApp, useT } from '../../../store/StoreContext';
import { DrawingViews, type ViewName } from '../DrawingViews';
import { PartViewer } from '../PartViewer';
import { TaskDownloads } from './TaskDownloads';

const VIEW_FILE = /^view-(front|top|left|right|iso)\.svg$/;
const VIEWER_IDS = { box: 'gen-part-canvas', face: 'gen-face-info' };

/**
 * The published revisions: a slider over them (the claims above follow it), the part in 3D with a
 * before/after toggle (the parent revision vs this one), the selected claim's faces highlighted,
 * the line drawings and the downloads of the shown revision.
 */
export function Revisions({ detail, highlight }: { detail: GenTaskDetail; highlight: readonly string[] }) {
  const t = useT();
  const fetchFile = useApp((s) => s.fetchGenFile);
  const showRevision = useApp((s) => s.showGenRevision);
  const [before, setBefore] = useState(false);
  const { revisions, shownRevision } = detail;
  const taskId = detail.task.taskId;
  const index = revisions.findIndex((r) => r.revisionId === shownRevision);
  const shown = revisions[index];
  if (!shown) {
    return (
      <section className="card" data-testid="gen-revisions" data-count={0}>
        <h2>{t('gen.revisions.title')}</h2>
        <p className="muted">{t('gen.revisions.none')}</p>
      </section>
    );
  }
  const parent = revisions.find((r) => r.revisionId === shown.parentRevision) ?? null;
  const displayed = before && parent ? parent : shown;
  const views = displayed.files.flatMap((f) => VIEW_FILE.exec(f)?.[1] ?? []) as ViewName[];
  const pick = (i: number): void => {
    setBefore(false);
    // The last position follows the head as new revisions land.
    void showRevision(i === revisions.length - 1 ? null : (revisions[i]?.revisionId ?? null));
  };
  return (
    <section className="card gen-revisions" data-testid="gen-revisions" data-count={revisions.length} data-shown={shown.revisionId}>
      <div className="cdsl-card-head">
        <h2>{t('gen.revisions.title')}</h2>
        <span className="muted">{t('gen.revisions.of', { revision: shown.revisionId, index: index + 1, count: revisions.length, action: shown.actionId })}</span>
      </div>
      <div className="cdsl-actions gen-revision-bar">
        <input type="range" min={0} max={revisions.length - 1} step={1} value={index} disabled={revisions.length < 2} aria-label={t('gen.revisions.slider')} onChange={(e) => pick(Number(e.target.value))} data-testid="gen-revision-slider" />
        <button type="button" className="btn-ghost btn-small" aria-pressed={before} disabled={!parent} onClick={() => setBefore((b) => !b)} data-testid="gen-before-after" data-showing={before && parent ? 'before' : 'after'}>
          {before && parent ? t('gen.revisions.showingBefore', { revision: parent.revisionId }) : t('gen.revisions.showingAfter', { revision: shown.revisionId })}
        </button>
      </div>
      <PartViewer
        loadKey={`${taskId}/${displayed.dir}`}
        load={() => fetchFile(taskId, `${displayed.dir}/model.glb`)}
        highlight={displayed === shown ? highlight : []}
        title={t('gen.revisions.viewer', { revision: displayed.revisionId })}
        testIds={VIEWER_IDS}
      />
      {views.length > 0 && <DrawingViews views={views} method="first_angle" loadKey={`${taskId}/${displayed.dir}`} load={(view) => fetchFile(taskId, `${displayed.dir}/view-${view}.svg`)} />}
      <TaskDownloads detail={detail} revision={shown} />
    </section>
  );
}
