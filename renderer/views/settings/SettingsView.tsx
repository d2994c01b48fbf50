import { useState } from 'react';
import { useApp, useT } from '../../store/StoreContext';
import type { RoleName, SettingsView as Settings } from '../../store/settingsSlice';
import { modelOptions } from '../modelOptions';
import { ProviderForm } from './ProviderForm';
import { ProviderList } from './ProviderList';
import { describeEnvOverrides } from './envOverrideLabels';
import { SystemCheckPanel } from './SystemCheckPanel';

const ROLES: RoleName[] = ['vision', 'author', 'reviewer'];

export function SettingsView() {
  const t = useT();
  const settings = useApp((s) => s.settings);
  const changeLocale = useApp((s) => s.changeLocale);
  const setRoleModel = useApp((s) => s.setRoleModel);
  const [editing, setEditing] = useState<Settings['providers'][number] | 'new' | null>(null);
  if (!settings) return null;
  const roleOptions = modelOptions(settings.providers, '\u0000');

  return (
    <section className="panel settings" data-testid="settings-view">
      <h1>{t('settings.title')}</h1>
      {settings.envOverrides.length > 0 && (
        <p className="hint" data-testid="settings-env-overrides">
          {t('settings.envOverride', { fields: describeEnvOverrides(settings.envOverrides, settings.providers, t).join(', ') })}
        </p>
      )}

      <h2>{t('settings.language')}</h2>
      <div className="segmented" role="radiogroup" aria-label={t('settings.language')}>
        {(['zh-CN', 'en'] as const).map((locale) => (
          <button
            key={locale}
            type="button"
            role="radio"
            aria-checked={settings.locale === locale}
            className={settings.locale === locale ? 'active' : ''}
            data-testid={`locale-${locale}`}
            onClick={() => void changeLocale(locale)}
          >
            {t(`settings.language.${locale}`)}
          </button>
        ))}
      </div>

      <h2>{t('settings.providers')}</h2>
      {editing === null && (
        <button type="button" className="btn-primary" data-testid="provider-add" onClick={() => setEditing('new')}>
          {t('settings.providers.add')}
        </button>
      )}
      {editing !== null && <ProviderForm existing={editing === 'new' ? null : editing} onDone={() => setEditing(null)} />}
      <ProviderList onEdit={(p) => setEditing(p)} />

      <h2>{t('settings.roles')}</h2>
      <div className="form-grid">
        {ROLES.map((role) => {
          const current = settings.roles[role];
          return (
            <label key={role}>
              {t(`settings.role.${role}`)}
              <select
                data-testid={`role-${role}`}
                value={current ? `${current.providerId}\u0000${current.model}` : ''}
                onChange={(e) => {
                  const [providerId, model] = e.target.value.split('\u0000');
                  void setRoleModel(role, providerId && model ? { providerId, model } : null);
                }}
              >
                <option value="">{t('settings.role.none')}</option>
                {roleOptions.map((o) => (
                  <option key={o.value} value={o.value}>
                    {o.label}
                  </option>
                ))}
              </select>
            </label>
          );
        })}
      </div>
      <CadSettings />
      <SystemCheckPanel
        onEditProvider={(id) => {
          // A provider set only by environment variables has nothing to edit here: offer a new one.
          setEditing(settings.providers.find((p) => p.id === id) ?? 'new');
          requestAnimationFrame(() => document.querySelector('[data-testid="provider-form"]')?.scrollIntoView?.({ block: 'center' }));
        }}
      />
    </section>
  );
}

function CadSettings() {
  const t = useT();
  const cad = useApp((s) => s.settings!.cad);
  const remoteFromEnv = useApp((s) => s.settings!.envOverrides.includes('cad.allowRemote'));
  const saveCad = useApp((s) => s.saveCad);
  const [host, setHost] = useState(cad.host);
  const [port, setPort] = useState(String(cad.port));
  const [allowRemote, setAllowRemote] = useState(cad.allowRemote);
  return (
    <>
      <h2>{t('settings.cad')}</h2>
      <form
        className="form-grid"
        onSubmit={(e) => {
          e.preventDefault();
          void saveCad(host.trim(), Number(port), allowRemote);
        }}
      >
        <label>
          {t('settings.cad.host')}
          <input value={host} onChange={(e) => setHost(e.target.value)} data-testid="cad-host" />
        </label>
        <label>
          {t('settings.cad.port')}
          <input value={port} inputMode="numeric" onChange={(e) => setPort(e.target.value)} data-testid="cad-port" />
        </label>
        <label className="checkbox span-2">
          <input type="checkbox" checked={remoteFromEnv ? cad.allowRemote : allowRemote} disabled={remoteFromEnv} onChange={(e) => setAllowRemote(e.target.checked)} data-testid="cad-allow-remote" />
          {t('settings.cad.allowRemote')}
          {remoteFromEnv && <span className="hint">{t('settings.cad.allowRemoteEnv')}</span>}
        </label>
        <div className="form-actions">
          <button type="submit" className="btn-primary" data-testid="cad-save">
            {t('settings.cad.save')}
          </button>
        </div>
      </form>
    </>
  );
}
