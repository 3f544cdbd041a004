import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

/**
 * The dashboard (D33): built into dist/web, which the service serves at `/` (src/http/web.ts). JSX goes through
 * Vite's own esbuild transform, so no React plugin (and no native binary beyond esbuild's) is needed.
 * `npm run dev:web` serves it with hot reload and forwards the API to a service on port 3000.
 */
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/',
  esbuild: { jsx: 'automatic' },
  build: {
    outDir: fileURLToPath(new URL('../dist/web', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    // Every asset a file of its own: the Content-Security-Policy allows scripts and styles from 'self' only.
    assetsInlineLimit: 0,
    reportCompressedSize: false,
    rollupOptions: {
      // TanStack Query marks its modules "use client" for React Server Components; meaningless in this bundle.
      onwarn(warning, warn) {
        if (warning.code === 'MODULE_LEVEL_DIRECTIVE') return;
        warn(warning);
      },
    },
  },
  server: {
    proxy: { '/v1': 'http://127.0.0.1:3000', '/openapi.json': 'http://127.0.0.1:3000' },
  },
});
