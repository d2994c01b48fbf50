import { useApp, useT } from '../../../store/StoreContext';
import type { ModelOption } from '../../modelOptions';
import { ErrorLine } from './ErrorLine';

/**
 * One role's model ("provider/model") with its stored protocol-conformance result and a button
 * that runs the check now (a few dozen short requests to that model).
 */
export function ModelPicker({ role, value, options, onChange }: { role: 'author' | 'reviewer'; value: string; options: ModelOption[]; onChange(value: string): void }) {
  const t = useT();
  const conformance = useApp((s) => (value ? s.genModels[value] : undefined));
  const check = useApp((s) => (value ? s.genChecks[value] : undefined));
  const runCheck = useApp((s) => s.checkGenModel);
  const status = conformance?.status ?? 'unchecked';
  return (
    <div className="gen-model">
      <label className="gen-field">
        {t(`gen.form.${role}`)}
        <select value={value} onChange={(e) => onChange(e.target.value)} data-testid={`gen-${role}-model`}>
          {options.length === 0 && <option value="">{t('gen.form.noModel')}</option>}
          {options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      </label>
      {value && (
        <div className="gen-model-status">
          <span className={`cdsl-badge gen-conformance-${status}`} data-testid={`gen-model-status-${role}`} data-status={status}>
            {t(`gen.conformance.${status}`, { passed: conformance?.passedChecks ?? 0, total: conformance?.totalChecks ?? 0 })}
          </span>
          <button type="button" className="btn-ghost btn-small" data-testid={`gen-check-${role}`} disabled={check?.status === 'running'} onClick={() => void runCheck(value)}>
            {check?.status === 'running' ? t('gen.conformance.running') : t('gen.conformance.run')}
          </button>
          {check?.status === 'running' && <progress className="gen-check-progress" aria-label={t('gen.conformance.running')} />}
        </div>
      )}
      {check?.status === 'failed' && <ErrorLine error={check.error} testId={`gen-check-error-${role}`} />}
      {status === 'unchecked' && value && check?.status !== 'running' && <p className="hint">{t('gen.conformance.uncheckedHint')}</p>}
      {conformance && conformance.failures.length > 0 && (
        <details className="cdsl-evidence" data-testid={`gen-check-failures-${role}`}>
          <summary>{t('gen.conformance.failures', { count: conformance.failures.length })}</summary>
          <ul className="gen-failures">
            {conformance.failures.map((f) => (
              <li key={f.name}>
                <span className="mono">{f.name}</span> — {f.detail}
              </li>
            ))}
          </ul>
        </details>
      )}
    </div>
  );
}
