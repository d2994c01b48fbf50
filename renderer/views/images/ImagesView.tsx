import { useEffect, useState } from 'react';
import { useApp, useT } from '../../store/StoreContext';
import { Composer } from './Composer';
import { Conversation } from './Conversation';
import { SessionList } from './SessionList';
import { distinctTitles, sessionTitle } from './turnText';
import { VisionErrorNotice } from './VisionErrorNotice';
import { Lightbox } from './Lightbox';
import './images.css';

/** The Images view: session list, the open conversation (with zoom), and the composer. */
export function ImagesView() {
  const t = useT();
  const loadVisionSessions = useApp((s) => s.loadVisionSessions);
  const session = useApp((s) => s.visionSession);
  const settings = useApp((s) => s.settings);
  const navigate = useApp((s) => s.navigate);
  const sessions = useApp((s) => s.visionSessions);
  const [zoomIndex, setZoomIndex] = useState<number | null>(null);
  useEffect(() => {
    void loadVisionSessions();
  }, [loadVisionSessions]);
  useEffect(() => setZoomIndex(null), [session?.id]);
  const notConfigured = settings !== null && settings.roles.vision === null && settings.providers.length === 0;

  return (
    <section className="images-view" data-testid="images-view">
      <SessionList />
      <div className="images-main">
        <h1 className="images-title">
          {session
            ? (distinctTitles(sessions, t('vision.sessions.untitled')).get(session.id) ?? (sessionTitle(session.summary) || t('vision.sessions.untitled')))
            : t('vision.sessions.new')}
        </h1>
        {notConfigured && (
          <div className="vision-notice" data-testid="vision-not-configured">
            <span>{t('vision.notConfigured')}</span>
            <button type="button" className="btn-ghost" data-testid="vision-open-settings" onClick={() => navigate('settings')}>
              {t('vision.error.openSettings')}
            </button>
          </div>
        )}
        <Conversation onZoom={setZoomIndex} />
        {session && zoomIndex !== null && <Lightbox session={session} imageIndex={zoomIndex} onClose={() => setZoomIndex(null)} />}
        <VisionErrorNotice />
        <Composer />
      </div>
    </section>
  );
}
