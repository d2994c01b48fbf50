import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { resolveBridge } from './bridge/resolveBridge';
import { defaultLocale } from './i18n/messages';
import { createAppStore } from './store/appStore';
import { StoreProvider } from './store/StoreContext';
import './styles.css';

const store = createAppStore(resolveBridge(window), defaultLocale(navigator.language));
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <StoreProvider store={store}>
      <App />
    </StoreProvider>
  </StrictMode>,
);
