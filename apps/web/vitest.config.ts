import { defineConfig } from 'vitest/config';
import { callRoutes } from './call-routes.plugin';

export default defineConfig({
  plugins: [callRoutes()],
  test: {
    environment: 'node',
    include: ['src/**/*.test.ts'],
  },
});
