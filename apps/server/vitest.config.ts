import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const root = path.dirname(fileURLToPath(import.meta.url));

/**
 * What a test file imports to reach a database: the test app and the helpers built on it,
 * a throwaway PostgreSQL database, or the server's own database code.
 */
const REACHES_A_DATABASE =
  /test\/(test-app|chat-helpers|admin-helpers|stats-helpers|throwaway-database)\.js|\/db\/database\.js|TEST_DATABASE_URL/;

/**
 * Test files that reach no database (pure logic, HTTP plumbing, HAProxy). They test nothing
 * of the dialect, so the PostgreSQL run leaves them to the SQLite run instead of repeating them.
 */
function databaseFreeTests(): string[] {
  return fs
    .readdirSync(path.join(root, 'src'), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.test.ts'))
    .map((file) => path.join('src', file))
    .filter((file) => !REACHES_A_DATABASE.test(fs.readFileSync(path.join(root, file), 'utf8')));
}

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    exclude: process.env.TEST_DATABASE_URL ? databaseFreeTests() : [],
    environment: 'node',
    pool: 'forks',
    fileParallelism: true,
    // The files spend most of their time waiting (streams, timers, sockets, the database),
    // not computing: three at once on two cores more than halves the run. Each file has its
    // own database (a SQLite directory or a PostgreSQL schema) and its own Redis prefix.
    maxWorkers: 3,
    // One module graph per worker instead of one per file: importing the app anew for every
    // file took about as long as running the tests. A file must leave nothing behind: it
    // restores its mocks and fake timers and closes the apps and servers it opened.
    isolate: false,
    // Each test builds a real app (migrations, argon2 hashing at ~50 ms per password).
    testTimeout: 30_000,
    hookTimeout: 60_000,
    teardownTimeout: 30_000,
  },
});
