import { useState } from 'react';
import { useApp, useT } from '../../store/StoreContext';
import type { VisionSessionListing } from '../../store/visionSlice';
import { distinctTitles } from './turnText';

/** Sessions of the database, newest first, including those agents created through MCP. */
export function SessionList() {
  const t = useT();
  const sessions = useApp((s) => s.visionSessions);
  const current = useApp((s) => s.visionSession?.id ?? null);
  const open = useApp((s) => s.openVisionSession);
  const reload = useApp((s) => s.loadVisionSessions);
  const titles = distinctTitles(sessions, t('vision.sessions.untitled'));
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
          <SessionRow key={session.id} session={session} title={titles.get(session.id)!} active={current === session.id} />
        ))}
      </ul>
    </aside>
  );
}

/** One session: open on click; Rename edits its title in place; Delete asks once more before deleting. */
function SessionRow({ session, title, active }: { session: VisionSessionListing; title: string; active: boolean }) {
  const t = useT();
  const open = useApp((s) => s.openVisionSession);
  const rename = useApp((s) => s.renameVisionSession);
  const remove = useApp((s) => s.deleteVisionSession);
  const locale = useApp((s) => s.locale);
  const [editing, setEditing] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const time = new Intl.DateTimeFormat(locale, { dateStyle: 'short', timeStyle: 'short' });
  const save = async () => {
    if (editing === null || editing.trim() === '') return setEditing(null);
    if (await rename(session.id, editing.trim())) setEditing(null);
  };

  return (
    <li className="vision-session-row" data-testid={`vision-session-row-${session.id}`}>
      {editing !== null ? (
        <form
          className="vision-rename"
          onSubmit={(event) => {
            event.preventDefault();
            void save();
          }}
        >
          <input
            aria-label={t('vision.sessions.renameLabel')}
            data-testid="vision-rename-input"
            value={editing}
            maxLength={200}
            autoFocus
            onChange={(event) => setEditing(event.target.value)}
            onKeyDown={(event) => event.key === 'Escape' && setEditing(null)}
          />
          <button type="submit" className="btn-primary" data-testid="vision-rename-save">
            {t('vision.sessions.save')}
          </button>
        </form>
      ) : (
        <button
          type="button"
          className={`vision-session-item${active ? ' active' : ''}`}
          data-testid={`vision-session-${session.id}`}
          aria-current={active ? 'true' : undefined}
          title={session.sources.join('\n')}
          onClick={() => void open(session.id)}
        >
          <span className="vision-session-summary">{title}</span>
          <span className="vision-session-meta">{t('vision.sessions.meta', { images: session.imageCount, turns: session.iterations, time: time.format(session.lastAccessAt) })}</span>
        </button>
      )}
      {editing === null && (
        <div className="vision-session-actions">
          <button type="button" className="btn-ghost" data-testid="vision-rename" aria-label={t('vision.sessions.renameOf', { title })} onClick={() => setEditing(title)}>
            {t('vision.sessions.rename')}
          </button>
          <button
            type="button"
            className={confirming ? 'btn-danger' : 'btn-ghost'}
            data-testid="vision-delete"
            aria-label={t('vision.sessions.deleteOf', { title })}
            onBlur={() => setConfirming(false)}
            onClick={() => (confirming ? void remove(session.id) : setConfirming(true))}
          >
            {confirming ? t('vision.sessions.confirmDelete') : t('vision.sessions.delete')}
          </button>
        </div>
      )}
    </li>
  );
}
