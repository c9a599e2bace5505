import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { callRoutes } from './call-routes.plugin';

/*
 * The contracts package holds zod schemas next to small helpers (permissions, limits).
 * Its modules only declare things, so marking them side-effect free lets the bundler drop
 * the schemas — and zod with them — from the browser bundle when only helpers are used.
 */
const CONTRACTS_SOURCE = /packages[\\/]contracts[\\/]src[\\/]/;

export default defineConfig({
  plugins: [react(), callRoutes()],
  server: {
    proxy: { '/api': { target: 'http://127.0.0.1:3000' } },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    rolldownOptions: {
      /*
       * Everything the entry loads before /login can render goes into one chunk. Left to
       * itself the bundler splits it into several chunks that import from each other,
       * and those seams cost a few kilobytes of gzip that the login budget has no room for.
       */
      output: { codeSplitting: { groups: [{ name: 'initial', tags: ['$initial'] }] } },
      treeshake: {
        moduleSideEffects: (id) => !CONTRACTS_SOURCE.test(id),
      },
    },
  },
});
