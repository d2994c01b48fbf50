import { useApp, useT } from '../../store/StoreContext';

/** Sessions of the database, newest first, including those agents created through MCP. */
export function SessionList() {
  const t = useT();
  const sessions = useApp((s) => s.visionSessions);
  const current = useApp((s) => s.visionSession?.id ?? null);
  const open = useApp((s) => s.openVisionSession);
  const reload = useApp((s) => s.loadVisionSessions);
  const locale = useApp((s) => s.locale);
  const time = new Intl.DateTimeFormat(locale, { dateStyle: 'short', timeStyle: 'short' });
  return (
    <aside className="vision-sessions" aria-label={t('vision.sessions')}>
      <div className="vision-sessions-head">
        <h2>{t('vision.sessions')}</h2>
        <button type="button" className="btn-ghost" data-testid="vision-refresh" onClick={() => void reload()}>
          {t('vision.sessions.refresh')}
        </button>
      </div>
      <button type="button" className={`vision-session-item new${current === null ? ' active' : ''}`} data-testid="vision-new-session" onClick={() => void open(null)}>
        + {t('vision.sessions.new')}
      </button>
      {sessions.length === 0 && <p className="hint">{t('vision.sessions.empty')}</p>}
      <ul className="vision-session-list">
        {sessions.map((session) => (
          <li key={session.id}>
            <button
              type="button"
              className={`vision-session-item${current === session.id ? ' active' : ''}`}
              data-testid={`vision-session-${session.id}`}
              aria-current={current === session.id ? 'true' : undefined}
              title={session.sources.join('\n')}
              onClick={() => void open(session.id)}
            >
              <span className="vision-session-summary">{session.summary || t('vision.sessions.untitled')}</span>
              <span className="vision-session-meta">
                {t('vision.sessions.meta', { images: session.imageCount, turns: session.iterations, time: time.format(session.lastAccessAt) })}
              </span>
            </button>
          </li>
        ))}
      </ul>
    </aside>
  );
}
