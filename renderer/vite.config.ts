import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The page is served under a per-launch secret path (`/<secret>/`), so every asset URL must be
// relative to the page: `base: './'`.
export default defineConfig({
  root: import.meta.dirname,
  base: './',
  plugins: [react()],
  build: {
    outDir: '../dist/renderer',
    emptyOutDir: true,
    // No inline <script>/<style> may reach the page: the CSP forbids them.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
  },
});
