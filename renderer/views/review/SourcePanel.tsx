import { useRef, useState } from 'react';
import { isLoopbackHost } from '../../../shared/localNetwork';
import { useApp, useT } from '../../store/StoreContext';

/** Where the drawing comes from: the bundled sample, a DXF file, or AutoCAD (host/port, status, reconnect). */
export function SourcePanel() {
  const t = useT();
  const drawing = useApp((s) => s.drawing);
  const busy = useApp((s) => s.drawingBusy);
  const connection = useApp((s) => s.connection);
  const cad = useApp((s) => s.settings?.cad);
  const openSample = useApp((s) => s.openSample);
  const openDxfFile = useApp((s) => s.openDxfFile);
  const connectCad = useApp((s) => s.connectCad);
  const refreshDrawing = useApp((s) => s.refreshDrawing);
  const picker = useRef<HTMLInputElement>(null);
  const [host, setHost] = useState<string | null>(null);
  const [port, setPort] = useState<string | null>(null);
  // Another computer's AutoCAD gets drawing data and commands: the user confirms it first.
  const [confirming, setConfirming] = useState<{ host: string; port: number } | null>(null);
  const hostValue = host ?? cad?.host ?? '127.0.0.1';
  const portValue = port ?? String(cad?.port ?? 8080);
  const portNumber = Number(portValue);
  const portValid = Number.isInteger(portNumber) && portNumber >= 1 && portNumber <= 65535;

  return (
    <div className="card review-source" data-testid="review-source">
      <h2>{t('review.source.title')}</h2>
      {drawing && (
        <div className="review-source-current" data-testid="review-source-current" data-kind={drawing.source.kind}>
          <span className={`pill source-${drawing.source.kind}`}>{t(`review.source.kind.${drawing.source.kind}`)}</span>
          <strong title={drawing.source.kind === 'cad' ? drawing.source.label : drawing.source.path}>{drawing.source.label}</strong>
          {drawing.source.kind === 'cad' && connection && (
            <span className={`pill conn-${connection.state}`} data-testid="cad-state" data-state={connection.state}>
              {t(`review.cad.state.${connection.state}`)}
            </span>
          )}
        </div>
      )}
      {drawing?.source.kind === 'cad' && connection && connection.state !== 'connected' && (
        <p className="form-error" data-testid="cad-lost">
          {t('review.cad.lost', { endpoint: connection.endpoint, reason: connection.reason ? `(${connection.reason})` : '' })}
        </p>
      )}
      <div className="review-source-actions">
        <button type="button" className="btn-ghost" data-testid="open-sample" disabled={busy} onClick={() => void openSample()}>
          {t('review.source.sample')}
        </button>
        <button type="button" className="btn-ghost" data-testid="open-dxf" disabled={busy} onClick={() => picker.current?.click()}>
          {t('review.source.openDxf')}
        </button>
        <input
          ref={picker}
          type="file"
          accept=".dxf,.dwg"
          className="visually-hidden"
          // The button above opens it; the input itself is neither a tab stop nor unnamed.
          tabIndex={-1}
          aria-label={t('review.source.openDxf')}
          data-testid="dxf-input"
          onChange={(e) => {
            const file = e.target.files?.[0];
            if (file) void openDxfFile(file);
            e.target.value = '';
          }}
        />
      </div>
      <p className="hint">{t('review.source.dropHint')}</p>
      <div className="review-cad">
        <label>
          {t('review.cad.host')}
          <input value={hostValue} data-testid="cad-host" onChange={(e) => setHost(e.target.value)} />
        </label>
        <label>
          {t('review.cad.port')}
          <input value={portValue} inputMode="numeric" data-testid="cad-port" onChange={(e) => setPort(e.target.value)} />
        </label>
        <button type="button" className="btn-ghost" data-testid="cad-connect" disabled={busy || !portValid || hostValue.trim() === ''} onClick={() => {
            const target = hostValue.trim();
            if (isLoopbackHost(target)) void connectCad(target, portNumber);
            else setConfirming({ host: target, port: portNumber });
          }}
        >
          {drawing?.source.kind === 'cad' ? t('review.cad.reconnect') : t('review.cad.connect')}
        </button>
      </div>
      {confirming && (
        <div className="review-cad-confirm" role="alertdialog" data-testid="cad-remote-confirm">
          <p>{t('review.cad.confirmRemote', { endpoint: `${confirming.host}:${confirming.port}` })}</p>
          <button type="button" className="btn-ghost" data-testid="cad-remote-cancel" onClick={() => setConfirming(null)}>
            {t('review.cad.confirmRemote.cancel')}
          </button>
          <button
            type="button"
            className="btn-primary"
            data-testid="cad-remote-ok"
            onClick={() => {
              setConfirming(null);
              void connectCad(confirming.host, confirming.port, true);
            }}
          >
            {t('review.cad.confirmRemote.ok')}
          </button>
        </div>
      )}
      {drawing && (
        <button type="button" className="btn-ghost review-refresh" disabled={busy} data-testid="drawing-refresh" onClick={() => void refreshDrawing()}>
          {t('review.source.refresh')}
        </button>
      )}
      {busy && <p className="hint" data-testid="drawing-busy">{t('review.source.opening')}</p>}
    </div>
  );
}
