import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

/**
 * What every page needs (React, the router, i18next, the stores, the API client, the
 * shell's controls) goes into one chunk next to the entry, instead of a dozen small shared
 * chunks: fewer requests, and one gzip stream compresses better. Zod and the form code stay
 * out (docs/decisions/033).
 */
const shellModules =
  /\/apps\/web\/src\/(lib\/(api-client|get-country-code|storage|tracking|route-paths|realtime|i18n|user-config|get-settings)\.ts|stores\/|components\/ui\/(app-link|icon|spinner|language-switch|overlay|page-loader)\.tsx|locales\/es\/common\.json)/;
// The zod-free part of the contract (@tradebot/contract/constants).
const shellContract = /\/packages\/contract\/src\/(api-paths|categories|geo|language)\.ts$/;
/**
 * The packages every page runs. The rest (zod, Radix, TanStack Query and Virtual,
 * lightweight-charts, Socket.IO) serve the logged-in screens and stay in their chunks.
 */
const shellPackages =
  /\/node_modules\/(react|react-dom|scheduler|react-router|cookie|set-cookie-parser|i18next|zustand|use-sync-external-store)\//;
function isShellModule(id: string): boolean {
  if (id.includes('/node_modules/')) return shellPackages.test(id);
  return shellModules.test(id) || shellContract.test(id);
}

/**
 * React Router builds <Link>, <NavLink> and <Form> with a top-level React.forwardRef call
 * and names them for DevTools, which a bundler must keep. Both are pure: saying so lets the
 * components we do not use (we link with AppLink) drop out of the shell chunk.
 */
function routerComponentsArePure(): Plugin {
  return {
    name: 'tradebot:router-components-are-pure',
    transform(code, id) {
      if (!/\/node_modules\/react-router\/dist\/production\/chunk-\w+\.mjs$/.test(id)) return null;
      return {
        code: code
          .replace(/= (React\d*\.forwardRef)\(/g, '= /* @__PURE__ */ $1(')
          // A top-level `Link.displayName = "Link"` would keep the component alive.
          .replace(/^(Link|NavLink|Form)\.displayName = "\w+";$/gm, ''),
        map: null,
      };
    },
  };
}

export default defineConfig(({ command }) => ({
  plugins: [routerComponentsArePure(), react()],
  resolve: {
    // react-router's package exports only its development build (warnings, invariant
    // texts); production builds use the production one it ships next to it.
    alias:
      command === 'build'
        ? [
            {
              find: /^react-router$/,
              replacement: fileURLToPath(
                new URL(
                  '../../node_modules/react-router/dist/production/index.mjs',
                  import.meta.url,
                ),
              ),
            },
          ]
        : [],
  },
  server: {
    // In development the API runs on its own port (npm run dev in apps/server); `ws` lets
    // the real-time channel upgrade to WebSocket through the proxy.
    proxy: { '/core-api': { target: 'http://127.0.0.1:8080', ws: true } },
  },
  build: {
    sourcemap: true,
    target: 'es2022',
    // Read by e2e/bundle-weight.e2e.ts to measure the home route's initial JavaScript.
    manifest: true,
    // No preload map: its helper and file lists cost 2 KB gzip in the entry, more than the
    // one round trip a route chunk's own imports take without it (docs/decisions/033).
    modulePreload: false,
    rolldownOptions: {
      output: {
        codeSplitting: {
          includeDependenciesRecursively: false,
          groups: [{ name: 'shell', test: (id: string) => isShellModule(id) }],
        },
      },
    },
  },
}));
