import { base64Bytes, saveFile } from '../../shell/saveFile';
import { useApp, useT } from '../../store/StoreContext';

/** Findings listed on screen; the downloaded report has them all. */
const FINDINGS_SHOWN = 200;
const SEVERITIES = ['blocking', 'major', 'minor', 'info'] as const;
const isSeverity = (s: string): s is (typeof SEVERITIES)[number] => (SEVERITIES as readonly string[]).includes(s);

function SetDownload({ kind, label }: { kind: 'markdown' | 'json'; label: string }) {
  const download = useApp((s) => s.downloadSetReport);
  return (
    <button
      type="button"
      className="btn-ghost btn-small"
      data-testid={`set-download-${kind}`}
      onClick={async () => {
        const file = await download(kind);
        if (file) saveFile(base64Bytes(file.dataBase64), file.fileName, file.mimeType);
      }}
    >
      {label}
    </button>
  );
}

/** A drawing set: start/continue/stop, progress per file, each file's report, and the set report (cross-sheet checks, sheets, findings). */
export function SetView() {
  const t = useT();
  const detail = useApp((s) => s.set);
  const startSet = useApp((s) => s.startSet);
  const cancelSet = useApp((s) => s.cancelSet);
  const selectRun = useApp((s) => s.selectRun);
  if (!detail) return null;
  const { set, files, report } = detail;
  // The set report speaks of stored (unique) file names; the user knows the names they uploaded.
  const uploaded = new Map(files.map((f) => [f.file, f.name]));
  const nameOf = (file: string): string => uploaded.get(file) ?? file;
  const running = set.status === 'running';
  const startLabel = set.status === 'completed' ? 'reviewSet.view.again' : set.done > 0 ? 'reviewSet.view.resume' : 'reviewSet.view.start';

  return (
    <div className="run-view set-view" data-testid="set-view" data-status={set.status}>
      <div className="run-head">
        <div>
          <h1 title={set.name}>{set.name}</h1>
          <div className="provider-meta">
            <span className={`pill status-${set.status}`} data-testid="set-status">
              {t(`reviewSet.status.${set.status}`)}
            </span>
            <span data-testid="set-progress">{t('reviewSet.view.progress', { done: set.done, total: set.files })}</span>
            {set.exitCode !== null && <span className="pill">{t('reviewSet.view.exit', { code: set.exitCode })}</span>}
          </div>
        </div>
        <div className="run-actions">
          {running ? (
            <button type="button" className="btn-ghost danger" onClick={() => void cancelSet()} data-testid="set-cancel">
              {t('reviewSet.view.cancel')}
            </button>
          ) : (
            <button type="button" className="btn-primary" disabled={set.files === 0} onClick={() => void startSet({ checklistPath: null, llm: false, model: null })} data-testid="set-start">
              {t(startLabel)}
            </button>
          )}
          {report && (
            <>
              <SetDownload kind="markdown" label={t('reviewSet.view.downloadMarkdown')} />
              <SetDownload kind="json" label={t('reviewSet.view.downloadJson')} />
            </>
          )}
        </div>
      </div>
      {!running && !report && <p className="hint">{t('reviewSet.view.rulesOnly')}</p>}
      <progress className="set-progress-bar" max={Math.max(1, set.files)} value={set.done} aria-label={t('reviewSet.view.progress', { done: set.done, total: set.files })} />

      {report && (
        <section className="card" data-testid="set-cross">
          <h2>{t('reviewSet.cross.title')}</h2>
          {report.crossSheet.length === 0 ? (
            <p className="hint">{t('reviewSet.cross.none')}</p>
          ) : (
            <ul className="set-cross-list">
              {report.crossSheet.map((c, i) => (
                <li key={i} data-kind={c.kind} data-testid="set-cross-item">
                  {c.message}
                </li>
              ))}
            </ul>
          )}
        </section>
      )}

      <section className="card">
        <h2>{t('reviewSet.files.title', { count: files.length })}</h2>
        <table className="set-table" data-testid="set-files">
          <thead>
            <tr>
              <th>{t('reviewSet.files.file')}</th>
              <th>{t('reviewSet.files.state')}</th>
              <th>{t('reviewSet.files.findings')}</th>
              <th>{t('reviewSet.files.exit')}</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {files.map((f) => (
              <tr key={f.file} data-testid="set-file" data-state={f.state}>
                <td title={f.name === f.file ? undefined : f.file}>{f.name}</td>
                <td>
                  <span className={`pill file-${f.state}`}>{t(`reviewSet.fileState.${f.state}`)}</span>
                  {f.error && <span className="form-error"> [{f.error.code}] {f.error.message}</span>}
                </td>
                <td>{f.state === 'done' ? f.findings : '—'}</td>
                <td>{f.exitCode ?? '—'}</td>
                <td>
                  {f.runId && (
                    <button type="button" className="btn-ghost btn-small" data-testid="set-file-open" onClick={() => void selectRun(f.runId)}>
                      {t('reviewSet.files.open')}
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>

      {report && (
        <section className="card">
          <h2>{t('reviewSet.sheets.title', { count: report.sheets.length })}</h2>
          {report.sheets.length === 0 ? (
            <p className="hint">{t('reviewSet.sheets.none')}</p>
          ) : (
            <table className="set-table" data-testid="set-sheets">
              <thead>
                <tr>
                  <th>{t('reviewSet.files.file')}</th>
                  <th>{t('reviewSet.sheets.frame')}</th>
                  <th>{t('reviewSet.sheets.titleField')}</th>
                  <th>{t('reviewSet.sheets.drawingNo')}</th>
                  <th>{t('reviewSet.sheets.sheetNo')}</th>
                  <th>{t('reviewSet.sheets.sheetCount')}</th>
                  <th>{t('reviewSet.sheets.size')}</th>
                </tr>
              </thead>
              <tbody>
                {report.sheets.map((s) => (
                  <tr key={`${s.file}#${s.frameId}`}>
                    <td>{nameOf(s.file)}</td>
                    <td>{s.frameId}</td>
                    <td>{s.title ?? '—'}</td>
                    <td>{s.drawingNo ?? '—'}</td>
                    <td>{s.sheetNo ?? '—'}</td>
                    <td>{s.sheetCount ?? '—'}</td>
                    <td>{s.sheet ?? '—'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </section>
      )}

      {report && (
        <section className="card">
          <h2>{t('reviewSet.findings.title', { count: report.findings.length })}</h2>
          <ul className="set-findings" data-testid="set-findings">
            {report.findings.slice(0, FINDINGS_SHOWN).map((f, i) => (
              <li key={i}>
                <span className={`pill sev-${f.severity}`}>{isSeverity(f.severity) ? t(`review.severity.${f.severity}`) : f.severity}</span> <code>{f.checklistItemId}</code> {nameOf(f.file)}
                {f.frameId ? `#${f.frameId}` : ''}: {f.message}
              </li>
            ))}
          </ul>
          {report.findings.length > FINDINGS_SHOWN && <p className="hint">{t('reviewSet.findings.more', { count: report.findings.length - FINDINGS_SHOWN })}</p>}
        </section>
      )}
    </div>
  );
}
