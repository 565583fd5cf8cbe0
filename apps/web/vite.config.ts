import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { readSiteConfig } from './site-config';

export default defineConfig(({ isSsrBuild }) => ({
  plugins: [react()],
  define: {
    // Canonical origin and operator identity, baked into the prerendered pages and the
    // client alike so that hydration sees the same text (docs/decisions/053).
    __SITE__: JSON.stringify(readSiteConfig(process.env)),
    __BUILD_YEAR__: JSON.stringify(new Date().getFullYear()),
  },
  server: {
    // In development the API runs on its own port (npm run dev in apps/server); `ws` lets
    // the real-time channel upgrade to WebSocket through the proxy.
    proxy: { '/core-api': { target: 'http://127.0.0.1:8080', ws: true } },
  },
  build: isSsrBuild
    ? // The renderer the prerender script runs at build time (scripts/prerender.ts); never served.
      { outDir: 'dist-ssr', target: 'node20', emptyOutDir: true }
    : {
        target: 'es2022',
        // Source maps are not built for production: `npm run build -w @tradebot/web --
        // --sourcemap` makes them for a debugging session; the server never serves a .map
        // (docs/decisions/054).
        sourcemap: false,
        // One stylesheet, linked from every prerendered page: a page's styles are there
        // before its first paint instead of arriving with the route's JavaScript.
        cssCodeSplit: false,
      },
}));
