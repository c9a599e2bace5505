import { defineConfig } from '@playwright/test';

const chromium = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

/**
 * Specs that change what every user sees (login mode, registration, system settings,
 * the system announcement, the visitor homepage): they run after the rest, one at a time.
 */
const GLOBAL_SETTINGS_SPECS = /(settings-.*|admin-settings|announcements|homepage|governance-retention)\.spec\.ts/;

/** Browser tests against the built app served by the real server (see global-setup.ts). */
export default defineConfig({
  testDir: './specs',
  globalSetup: './support/global-setup.ts',
  fullyParallel: true,
  // One browser at a time: on a 2-core machine a second one adds no throughput (7 tests:
  // 63 s with one worker, 58 s with two) but doubles each test's time towards its timeout.
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 15_000 },
  reporter: [['list'], ['json']],
  projects: [
    { name: 'main', testIgnore: GLOBAL_SETTINGS_SPECS },
    { name: 'settings', testMatch: GLOBAL_SETTINGS_SPECS, dependencies: ['main'], workers: 1 },
  ],
  outputDir: './.tmp/test-results',
  use: {
    baseURL: process.env.E2E_BASE_URL,
    locale: 'zh-CN',
    // The app turns antd's and the charts' animations off for reduced motion: less to wait
    // for and far less CPU in software rendering on a 2-core machine.
    reducedMotion: 'reduce',
    // Recording a trace costs about 40% more time per test; only a retry records one.
    trace: 'on-first-retry',
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
