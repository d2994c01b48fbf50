import type { ReactNode } from 'react';
import type { MessageKey } from '../i18n/messages';
import { useApp, useT } from '../store/StoreContext';
import type { ViewId } from '../store/types';
import { ErrorBanner } from './ErrorBanner';
import { StatusBar } from './StatusBar';

const NAV: { id: ViewId; label: MessageKey; glyph: string }[] = [
  { id: 'images', label: 'nav.images', glyph: '◧' },
  { id: 'review', label: 'nav.review', glyph: '◎' },
  { id: 'generate', label: 'nav.generate', glyph: '⬡' },
  { id: 'settings', label: 'nav.settings', glyph: '⚙' },
];

/** Navigation rail, error banner, the active view, status bar. */
export function AppShell({ views }: { views: Record<ViewId, () => ReactNode> }) {
  const view = useApp((s) => s.view);
  const navigate = useApp((s) => s.navigate);
  const t = useT();
  return (
    <div className="shell">
      <nav className="nav" aria-label={t('nav.label')}>
        <div className="brand">{t('app.title')}</div>
        {NAV.map((item) => (
          <button
            key={item.id}
            type="button"
            className={`nav-item${view === item.id ? ' active' : ''}`}
            aria-current={view === item.id ? 'page' : undefined}
            data-testid={`nav-${item.id}`}
            onClick={() => navigate(item.id)}
          >
            <span className="nav-glyph" aria-hidden="true">
              {item.glyph}
            </span>
            {t(item.label)}
          </button>
        ))}
      </nav>
      <div className="main">
        <ErrorBanner />
        <main className="content" data-testid={`view-${view}`}>
          {views[view]()}
        </main>
      </div>
      <StatusBar />
    </div>
  );
}
