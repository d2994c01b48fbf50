import { useApp, useT } from '../../store/StoreContext';
import type { SettingsView } from '../../store/settingsSlice';

type ProviderView = SettingsView['providers'][number];

export function ProviderList({ onEdit }: { onEdit: (provider: ProviderView) => void }) {
  const t = useT();
  const providers = useApp((s) => s.settings?.providers ?? []);
  const tests = useApp((s) => s.providerTests);
  const testProvider = useApp((s) => s.testProvider);
  const deleteProvider = useApp((s) => s.deleteProvider);
  if (providers.length === 0) return <p className="muted" data-testid="providers-empty">{t('settings.providers.empty')}</p>;
  return (
    <ul className="provider-list" data-testid="provider-list">
      {providers.map((p) => {
        const test = tests[p.id];
        return (
          <li key={p.id} className="card provider" data-testid={`provider-${p.id}`}>
            <div className="provider-head">
              <strong>{p.label}</strong>
              <code>{p.id}</code>
              <span className={`pill ${p.keyConfigured ? 'ok' : 'muted'}`}>
                {p.keyConfigured
                  ? t('settings.providers.keyConfigured', { source: t(`settings.providers.keySource.${p.keySource}`) })
                  : t('settings.providers.keyMissing')}
              </span>
            </div>
            <div className="provider-meta">
              <span>{t(`settings.protocol.${p.protocol}`)}</span>
              <span className="mono">{p.baseUrl}</span>
              <span>{p.models.join(', ')}</span>
            </div>
            <div className="provider-actions">
              <button type="button" className="btn-ghost" onClick={() => void testProvider(p.id)} disabled={test?.status === 'running'}>
                {test?.status === 'running' ? t('settings.providers.testing') : t('settings.providers.test')}
              </button>
              <button type="button" className="btn-ghost" onClick={() => onEdit(p)}>
                {t('settings.providers.edit')}
              </button>
              <button type="button" className="btn-ghost danger" onClick={() => void deleteProvider(p.id)}>
                {t('settings.providers.delete')}
              </button>
              {test?.status === 'ok' && <span className="pill ok">{t('settings.providers.testOk', { model: test.model, ms: test.latencyMs })}</span>}
              {test?.status === 'failed' && (
                <span className="pill bad" data-testid="provider-test-error">
                  {test.error.code}: {test.error.message}
                </span>
              )}
            </div>
          </li>
        );
      })}
    </ul>
  );
}
