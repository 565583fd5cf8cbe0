import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  plugins: [react()],
  server: {
    // In development the API runs on its own port (npm run dev in apps/server).
    proxy: { '/core-api': 'http://127.0.0.1:8080' },
  },
  build: { sourcemap: true, target: 'es2022' },
});
