import { useState, type FormEvent } from 'react';
import type { AppErrorData } from '../../../shared/errors';
import { providerPresets, type ProviderPreset } from '../../../shared/llmPresets';
import { isLocalNetworkHost } from '../../../shared/localNetwork';
import { useApp, useT } from '../../store/StoreContext';
import type { SettingsView } from '../../store/settingsSlice';

type ProviderView = SettingsView['providers'][number];
const PROTOCOLS = ['openai-responses', 'chat-completions', 'anthropic-messages'] as const;

function isLocalNetworkUrl(url: string): boolean {
  try {
    return isLocalNetworkHost(new URL(url).hostname);
  } catch {
    return false; // not a URL yet while the user types; the main process validates it on save
  }
}

/** Add/edit one provider. The key field is write-only: the stored key is never shown. */
export function ProviderForm({ existing, onDone }: { existing: ProviderView | null; onDone: () => void }) {
  const t = useT();
  const saveProvider = useApp((s) => s.saveProvider);
  const secretStorage = useApp((s) => s.settings?.secretStorage);
  const [preset, setPreset] = useState<ProviderPreset['id']>(existing?.preset ?? 'openai');
  const [id, setId] = useState(existing?.id ?? 'openai');
  const [label, setLabel] = useState(existing?.label ?? providerPresets.openai.label);
  const [protocol, setProtocol] = useState<(typeof PROTOCOLS)[number]>(existing?.protocol ?? 'openai-responses');
  const [baseUrl, setBaseUrl] = useState(existing?.baseUrl ?? providerPresets.openai.baseUrl ?? '');
  const [models, setModels] = useState(existing?.models.join(', ') ?? providerPresets.openai.defaultModel ?? '');
  const [forceStreaming, setForceStreaming] = useState(existing?.forceStreaming ?? false);
  const [allowLocalNetwork, setAllowLocalNetwork] = useState(existing?.allowLocalNetwork ?? false);
  const [apiKey, setApiKey] = useState('');
  // Only a Custom provider on a local or private address needs (and may carry) the confirmation.
  const asksLocalConfirmation = preset === 'custom' && isLocalNetworkUrl(baseUrl.trim());
  const [error, setError] = useState<AppErrorData | null>(null);
  const [busy, setBusy] = useState(false);

  const choosePreset = (next: ProviderPreset['id']): void => {
    const p = providerPresets[next];
    setPreset(next);
    setProtocol(p.protocol);
    setBaseUrl(p.baseUrl ?? '');
    setModels(p.defaultModel ?? '');
    if (!existing) {
      setId(next);
      setLabel(p.label);
    }
  };

  const submit = async (event: FormEvent): Promise<void> => {
    event.preventDefault();
    setBusy(true);
    const modelList = models.split(',').map((m) => m.trim()).filter(Boolean);
    const failure = await saveProvider({
      id: id.trim(),
      label: label.trim(),
      preset,
      protocol,
      baseUrl: baseUrl.trim(),
      models: modelList,
      forceStreaming,
      allowLocalNetwork: asksLocalConfirmation && allowLocalNetwork,
      ...(apiKey ? { apiKey } : {}),
    });
    setBusy(false);
    setApiKey('');
    if (failure) setError(failure);
    else onDone();
  };

  return (
    <form className="card form" onSubmit={(e) => void submit(e)} data-testid="provider-form">
      <div className="form-grid">
        <label>
          {t('settings.provider.preset')}
          <select value={preset} onChange={(e) => choosePreset(e.target.value as ProviderPreset['id'])} data-testid="provider-preset">
            {Object.values(providerPresets).map((p) => (
              <option key={p.id} value={p.id}>
                {p.label}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t('settings.provider.id')}
          <input value={id} disabled={existing !== null} onChange={(e) => setId(e.target.value)} data-testid="provider-id" />
        </label>
        <label>
          {t('settings.provider.label')}
          <input value={label} onChange={(e) => setLabel(e.target.value)} data-testid="provider-label" />
        </label>
        <label>
          {t('settings.provider.protocol')}
          <select value={protocol} onChange={(e) => setProtocol(e.target.value as (typeof PROTOCOLS)[number])}>
            {PROTOCOLS.map((p) => (
              <option key={p} value={p}>
                {t(`settings.protocol.${p}`)}
              </option>
            ))}
          </select>
        </label>
        <label className="span-2">
          {t('settings.provider.baseUrl')}
          <input value={baseUrl} onChange={(e) => setBaseUrl(e.target.value)} data-testid="provider-base-url" />
        </label>
        {asksLocalConfirmation && (
          <label className="checkbox span-2">
            <input type="checkbox" checked={allowLocalNetwork} onChange={(e) => setAllowLocalNetwork(e.target.checked)} data-testid="provider-allow-local" />
            {t('settings.provider.allowLocalNetwork')}
          </label>
        )}
        <label className="span-2">
          {t('settings.provider.models')}
          <input value={models} onChange={(e) => setModels(e.target.value)} data-testid="provider-models" />
        </label>
        <label className="checkbox">
          <input type="checkbox" checked={forceStreaming} onChange={(e) => setForceStreaming(e.target.checked)} />
          {t('settings.provider.forceStreaming')}
        </label>
        <label className="span-2">
          {t('settings.provider.apiKey')}
          <input
            type="password"
            autoComplete="off"
            value={apiKey}
            placeholder={existing?.keyConfigured ? t('settings.provider.apiKeyKeep') : ''}
            disabled={secretStorage?.available === false}
            onChange={(e) => setApiKey(e.target.value)}
            data-testid="provider-api-key"
          />
          {secretStorage?.available === false && (
            <span className="hint warning">{t('settings.provider.secretsUnavailable', { backend: secretStorage.backend })}</span>
          )}
        </label>
      </div>
      {error && (
        <p className="form-error" role="alert" data-testid="provider-form-error">
          {error.message} <span className="banner-code">{t('banner.code', { code: error.code })}</span>
        </p>
      )}
      <div className="form-actions">
        <button type="button" className="btn-ghost" onClick={onDone}>
          {t('settings.provider.cancel')}
        </button>
        <button type="submit" className="btn-primary" disabled={busy} data-testid="provider-save">
          {t('settings.provider.save')}
        </button>
      </div>
    </form>
  );
}
