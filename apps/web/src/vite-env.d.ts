/// <reference types="vite/client" />

/** Site origin and operator identity, set at build time (vite.config.ts, site-config.ts). */
// eslint-disable-next-line @typescript-eslint/consistent-type-imports -- a global declaration file cannot import
declare const __SITE__: import('../site-config').SiteConfig;

/** The year the app was built (the footer's copyright line). */
declare const __BUILD_YEAR__: number;
