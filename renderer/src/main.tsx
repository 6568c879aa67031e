import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.js';
import { createBridge } from './bridge/index.js';
import { layoutFromLocation } from './layout.js';
import { createUiStore } from './store.js';
import { UiStoreContext } from './store-context.js';
import './styles.css';

// `?window=consent|kill` or `#consent|#kill` show one control alone (Electron's small windows).
const layout = layoutFromLocation(location);

const bridge = createBridge();
// Under Electron (its preload defines window.cutright) consent is asked in its own window.
// Copy path uses the page's clipboard (both shells' pages are secure contexts).
const store = createUiStore(Object.assign(bridge, { copyText: (text: string) => navigator.clipboard.writeText(text) }));
const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
document.documentElement.dataset.layout = layout;

createRoot(root).render(
  <StrictMode>
    <UiStoreContext value={store}>
      <App bridge={bridge} layout={layout} consentElsewhere={'cutright' in window} />
    </UiStoreContext>
  </StrictMode>,
);
