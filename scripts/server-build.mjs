// The compiled server: `tsc -b` turns apps/server/src and packages/contracts/src into
// JavaScript under their `dist` folders. Used by `npm start`, `npm run build:server`
// and the benchmark, so all three run the same code the same way.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Node options of the compiled server. `compiled` picks the contracts package's built
 * JavaScript (its `exports` map); without it Node would be handed the TypeScript sources
 * that the dev server, the tests and the web build use.
 */
export const SERVER_NODE_ARGS = ['--conditions=compiled'];

/** Written after every successful build: tsc leaves unchanged outputs untouched, so no .js file dates the build. */
const STAMP = 'apps/server/dist/.build-stamp';

/** Newest modification time under `dir`, skipping node_modules and build outputs. */
export function newestMtime(dir) {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    const p = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(p) : fs.statSync(p).mtimeMs);
  }
  return newest;
}

/** Builds the server when its stamp is missing or older than any source or build setting; false on failure. */
export function ensureServerBuild(root) {
  const stamp = path.join(root, STAMP);
  const inputs = [
    path.join(root, 'apps/server/src'),
    path.join(root, 'packages/contracts/src'),
    path.join(root, 'apps/server/tsconfig.build.json'),
    path.join(root, 'packages/contracts/tsconfig.build.json'),
    path.join(root, 'packages/contracts/package.json'),
    path.join(root, 'tsconfig.base.json'),
  ];
  const newest = Math.max(
    ...inputs.map((p) => (fs.statSync(p).isDirectory() ? newestMtime(p) : fs.statSync(p).mtimeMs)),
  );
  if (fs.existsSync(stamp) && fs.statSync(stamp).mtimeMs >= newest) return true;
  console.log('Building the server…');
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const r = spawnSync(process.execPath, [tsc, '-b', 'apps/server/tsconfig.build.json'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (r.status !== 0) return false;
  fs.writeFileSync(stamp, `${new Date().toISOString()}\n`);
  return true;
}

// `node scripts/server-build.mjs` (npm run build:server): build if needed.
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  process.exit(ensureServerBuild(root) ? 0 : 1);
}
