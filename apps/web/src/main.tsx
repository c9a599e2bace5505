// First: zod must be told before any schema is built (see zod-jitless.ts).
import './zod-jitless';
import './i18n';
import './styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { themeReady } from './theme/theme-store';

const root = document.getElementById('root');
if (!root) throw new Error('Missing #root element in index.html');

// In the dark theme its chunk arrives first, so the first frame already has dark components.
void themeReady().then(() =>
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  ),
);
