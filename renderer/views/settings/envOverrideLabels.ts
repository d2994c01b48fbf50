import type { MessageKey } from '../../i18n/messages';
import type { SettingsView } from '../../store/settingsSlice';

type Translate = (key: MessageKey, params?: Record<string, string | number>) => string;

/** A provider as users know it: its name, with the id when they differ (two "Custom" ones stay apart). */
export function nameWithId(name: string | undefined, id: string): string {
  return name && name !== id ? `${name} (${id})` : id;
}

function providerDisplayName(providers: SettingsView['providers'], id: string): string {
  return nameWithId(providers.find((p) => p.id === id)?.label, id);
}

/**
 * The settings an environment variable overrides, in the user's words instead of field paths
 * ("providers.custom.baseUrl" → "address of provider My gateway (custom)"); one entry per setting.
 */
export function describeEnvOverrides(fields: string[], providers: SettingsView['providers'], t: Translate): string[] {
  const described = fields.map((field) => {
    const [head, second, third] = field.split('.');
    if (head === 'locale') return t('settings.language');
    if (field === 'cad.allowRemote') return t('settings.override.cadRemote');
    if (head === 'cad') return t('settings.override.cadAddress');
    if (head === 'allowedRoots') return t('settings.override.allowedRoots');
    if (head === 'limits' && second) return t('settings.override.limit', { name: second });
    if (head === 'roles' && (second === 'vision' || second === 'author' || second === 'reviewer')) return t('settings.override.role', { role: t(`settings.role.${second}`) });
    if (head === 'providers' && second) {
      const name = providerDisplayName(providers, second);
      return third === 'baseUrl' ? t('settings.override.providerAddress', { name }) : t('settings.override.provider', { name });
    }
    return field;
  });
  return [...new Set(described)];
}
