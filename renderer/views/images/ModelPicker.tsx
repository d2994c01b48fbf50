import { useApp, useT } from '../../store/StoreContext';

const SEPARATOR = '\u0000';

/** Provider/model for the next turn: the Settings vision default, or any model of a configured provider. */
export function ModelPicker() {
  const t = useT();
  const settings = useApp((s) => s.settings);
  const choice = useApp((s) => s.visionChoice);
  const setChoice = useApp((s) => s.setVisionChoice);
  if (!settings) return null;
  const fallback = settings.roles.vision;
  const fallbackProvider = settings.providers.find((p) => p.id === fallback?.providerId);
  return (
    <label className="vision-model">
      {t('vision.model.label')}
      <select
        data-testid="vision-model"
        value={choice ? `${choice.providerId}${SEPARATOR}${choice.model}` : ''}
        onChange={(event) => {
          const [providerId, model] = event.target.value.split(SEPARATOR);
          setChoice(providerId && model ? { providerId, model } : null);
        }}
      >
        <option value="">{fallback ? t('vision.model.default', { model: `${fallbackProvider?.label ?? fallback.providerId} · ${fallback.model}` }) : t('vision.model.defaultNone')}</option>
        {settings.providers.flatMap((provider) =>
          provider.models.map((model) => (
            <option key={`${provider.id}/${model}`} value={`${provider.id}${SEPARATOR}${model}`}>
              {`${provider.label} · ${model}${provider.keyConfigured ? '' : ` ${t('vision.model.noKey')}`}`}
            </option>
          )),
        )}
      </select>
    </label>
  );
}
