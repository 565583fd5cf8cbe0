import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { createAppRouter } from './app/router';
import { i18n, i18nReady } from './lib/i18n';
import { storeTrackingParameters } from './lib/tracking';
import { useAppStore } from './stores/app';
import './components/ui/tokens.css';
import './styles.css';

const container = document.getElementById('root');
if (!container) throw new Error('#root is missing from index.html');

// spec §4: tracking parameters are read from the query string at startup.
storeTrackingParameters(window.location.search);

useAppStore.getState().setLanguage(i18n.language);
i18n.on('languageChanged', (language) => {
  useAppStore.getState().setLanguage(language);
});

// The stored language's shell catalogue first (Portuguese is a chunk of its own).
await i18nReady();

createRoot(container).render(
  <StrictMode>
    <RouterProvider router={createAppRouter()} />
  </StrictMode>,
);
