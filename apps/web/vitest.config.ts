import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { callRoutes } from './call-routes.plugin';

const root = path.dirname(fileURLToPath(import.meta.url));

/** Replacing a module or a global only works, and only stays in its file, in a module graph of its own. */
const REPLACES_MODULES_OR_GLOBALS = /\bvi\.(mock|doMock|stubGlobal|stubEnv)\(/;

/** The test files that mock modules or stub globals. */
function filesThatNeedIsolation(): string[] {
  return fs
    .readdirSync(path.join(root, 'src'), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.test.ts'))
    .map((file) => path.join('src', file))
    .filter((file) => REPLACES_MODULES_OR_GLOBALS.test(fs.readFileSync(path.join(root, file), 'utf8')));
}

const isolated = filesThatNeedIsolation();

export default defineConfig({
  plugins: [callRoutes()],
  test: {
    environment: 'node',
    projects: [
      {
        extends: true,
        // One module graph per worker: importing anew for every file took several times as
        // long as the tests themselves.
        test: { name: 'shared', include: ['src/**/*.test.ts'], exclude: isolated, isolate: false },
      },
      { extends: true, test: { name: 'isolated', include: isolated } },
    ],
  },
});
