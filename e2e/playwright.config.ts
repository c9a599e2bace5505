import { defineConfig } from '@playwright/test';

const chromium = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

/**
 * Specs that change what every user sees (login mode, registration, system settings,
 * the system announcement, the visitor homepage): they run after the rest, one at a time.
 */
const GLOBAL_SETTINGS_SPECS = /(settings-.*|admin-settings|announcements|homepage)\.spec\.ts/;

/** Browser tests against the built app served by the real server (see global-setup.ts). */
export default defineConfig({
  testDir: './specs',
  globalSetup: './support/global-setup.ts',
  fullyParallel: true,
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  timeout: 45_000,
  expect: { timeout: 10_000 },
  reporter: [['list'], ['json']],
  projects: [
    { name: 'main', testIgnore: GLOBAL_SETTINGS_SPECS },
    { name: 'settings', testMatch: GLOBAL_SETTINGS_SPECS, dependencies: ['main'], workers: 1 },
  ],
  outputDir: './.tmp/test-results',
  use: {
    baseURL: process.env.E2E_BASE_URL,
    locale: 'zh-CN',
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: chromium,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
});
