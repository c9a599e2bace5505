import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    const p = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(p) : fs.statSync(p).mtimeMs);
  }
  return newest;
}

/**
 * Builds apps/web when dist is missing or older than its sources (the same rule as
 * `npm start`), so the browser measurements run against the current code.
 * Returns the dist folder.
 */
export function ensureWebBuild(root: string): string {
  const dist = path.join(root, 'apps/web/dist');
  const index = path.join(dist, 'index.html');
  const sources = [path.join(root, 'apps/web'), path.join(root, 'packages/contracts/src')];
  const stale = !fs.existsSync(index) || Math.max(...sources.map(newestMtime)) > fs.statSync(index).mtimeMs;
  if (stale) {
    console.error('bench: building the web app (apps/web/dist is missing or stale)…');
    const r = spawnSync('npm', ['run', 'build', '-w', 'apps/web'], { cwd: root, stdio: ['ignore', 2, 2] });
    if (r.status !== 0) throw new Error(`web build failed with ${r.status}`);
  }
  return dist;
}
