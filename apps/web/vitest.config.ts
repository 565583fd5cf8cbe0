import { defineConfig } from 'vitest/config';
import { readSiteConfig } from './site-config';

export default defineConfig({
  define: {
    __SITE__: JSON.stringify(readSiteConfig({})),
    __BUILD_YEAR__: JSON.stringify(new Date().getFullYear()),
  },
  test: { include: ['src/**/*.test.{ts,tsx}', 'scripts/**/*.test.ts'] },
});
