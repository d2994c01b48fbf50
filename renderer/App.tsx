import { useEffect, type ReactNode } from 'react';
import { AppShell } from './shell/AppShell';
import { useApp } from './store/StoreContext';
import type { ViewId } from './store/types';
import { SettingsView } from './views/settings/SettingsView';
import { GenerateView } from './views/generate/GenerateView';
import { ReviewView } from './views/review/ReviewView';
import { ImagesView } from './views/images/ImagesView';

/** Each area's root view. */
const views: Record<ViewId, () => ReactNode> = {
  images: () => <ImagesView />,
  review: () => <ReviewView />,
  generate: () => <GenerateView />,
  settings: () => <SettingsView />,
};

export function App() {
  const loadAppInfo = useApp((s) => s.loadAppInfo);
  const loadSettings = useApp((s) => s.loadSettings);
  const locale = useApp((s) => s.locale);
  useEffect(() => {
    void loadAppInfo();
    void loadSettings();
  }, [loadAppInfo, loadSettings]);
  useEffect(() => {
    document.documentElement.lang = locale;
  }, [locale]);
  return <AppShell views={views} />;
}
