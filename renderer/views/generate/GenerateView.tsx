import { useApp, useT } from '../../store/StoreContext';
import { DocumentMode } from './DocumentMode';
import { WordsMode } from './words/WordsMode';
import './generate.css';

/** Generate area: describe a part in words (the CDSL v3 protocol, default) or open a CDSL document. */
export function GenerateView() {
  const t = useT();
  const tab = useApp((s) => s.genTab);
  const setTab = useApp((s) => s.setGenTab);
  return (
    <section className={`panel cdsl${tab === 'words' ? ' cdsl-words' : ''}`} data-testid="generate-view">
      <h1>{t('cadgen.title')}</h1>
      <div className="gen-tabs" role="tablist">
        {(['words', 'document'] as const).map((name) => (
          <button key={name} type="button" role="tab" aria-selected={tab === name} className={`gen-tab${tab === name ? ' active' : ''}`} data-testid={`gen-tab-${name}`} onClick={() => setTab(name)}>
            {t(`gen.tab.${name}`)}
          </button>
        ))}
      </div>
      {tab === 'words' ? <WordsMode /> : <DocumentMode />}
    </section>
  );
}
