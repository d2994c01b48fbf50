import { useApp, useT } from '../store/StoreContext';

export function StatusBar() {
  const info = useApp((s) => s.appInfo);
  const t = useT();
  return (
    <footer className="status-bar" data-testid="status-bar">
      {info ? (
        <>
          <span data-testid="status-transport">{t(info.transport === 'electron' ? 'status.transport.electron' : 'status.transport.browser')}</span>
          <span className="status-sep" />
          <span title={info.dataDir}>{t('status.dataDir', { path: info.dataDir })}</span>
          <span className="status-spacer" />
          <span>{t('status.version', { version: info.version })}</span>
        </>
      ) : (
        <span>{t('status.connecting')}</span>
      )}
    </footer>
  );
}
