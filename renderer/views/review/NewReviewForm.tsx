import { useState } from 'react';
import { useApp, useT } from '../../store/StoreContext';
import { modelOptions } from '../modelOptions';

const MODEL_SEPARATOR = '\u0000';

/** "New review": checklist (default or a custom file), LLM on/off and the model. */
export function NewReviewForm() {
  const t = useT();
  const drawing = useApp((s) => s.drawing);
  const settings = useApp((s) => s.settings);
  const startReview = useApp((s) => s.startReview);
  const [custom, setCustom] = useState(false);
  const [checklistPath, setChecklistPath] = useState('');
  const [llm, setLlm] = useState(false);
  const [model, setModel] = useState('');
  const [starting, setStarting] = useState(false);
  const reviewer = settings?.roles.reviewer ?? null;
  const models = modelOptions(settings?.providers ?? [], MODEL_SEPARATOR);
  // '' = the reviewer role from Settings (which may come from environment variables).
  const canStart = drawing !== null && !starting && (!custom || checklistPath.trim() !== '') && (!llm || model !== '' || reviewer !== null);

  const start = async (): Promise<void> => {
    setStarting(true);
    try {
      const [providerId, modelId] = model.split(MODEL_SEPARATOR);
      await startReview({
        checklistPath: custom ? checklistPath.trim() : null,
        llm,
        model: llm && providerId && modelId ? { providerId, model: modelId } : null,
      });
    } finally {
      setStarting(false);
    }
  };

  return (
    <div className="card review-new" data-testid="review-new">
      <h2>{t('review.new.title')}</h2>
      <fieldset className="review-fieldset">
        <legend>{t('review.new.checklist')}</legend>
        <label className="checkbox">
          <input type="radio" checked={!custom} onChange={() => setCustom(false)} /> {t('review.new.checklistDefault')}
        </label>
        <label className="checkbox">
          <input type="radio" checked={custom} onChange={() => setCustom(true)} data-testid="checklist-custom" /> {t('review.new.checklistCustom')}
        </label>
        {custom && <input value={checklistPath} placeholder={t('review.new.checklistPath')} onChange={(e) => setChecklistPath(e.target.value)} data-testid="checklist-path" />}
      </fieldset>
      <label className="checkbox">
        <input type="checkbox" checked={llm} onChange={(e) => setLlm(e.target.checked)} data-testid="llm-toggle" /> {t('review.new.llm')}
      </label>
      {llm && (
        <label className="review-model">
          {t('review.new.model')}
          <select value={model} onChange={(e) => setModel(e.target.value)} data-testid="llm-model">
            <option value="">{reviewer ? t('review.new.modelRole', { model: `${reviewer.providerId} · ${reviewer.model}` }) : t('review.new.modelNone')}</option>
            {models.map((m) => (
              <option key={m.value} value={m.value}>
                {m.label}
              </option>
            ))}
          </select>
        </label>
      )}
      {llm && models.length === 0 && <p className="hint warning">{t('review.new.noProvider')}</p>}
      {!llm && <p className="hint">{t('review.new.rulesOnly')}</p>}
      <button type="button" className="btn-primary" disabled={!canStart} onClick={() => void start()} data-testid="review-start">
        {starting ? t('review.new.starting') : t('review.new.start')}
      </button>
    </div>
  );
}
