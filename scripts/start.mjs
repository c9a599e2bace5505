#!/usr/bin/env node
// `npm start`: builds the web app and the server when they are missing or older than their
// sources, then runs the compiled server (plain node, no TypeScript loader) with the API and
// the SPA on one port.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SERVER_NODE_ARGS, ensureServerBuild, newestMtime } from './server-build.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const envFile = path.join(root, '.env');
if (fs.existsSync(envFile)) process.loadEnvFile(envFile);

const dist = path.join(root, 'apps/web/dist/index.html');
const sources = [path.join(root, 'apps/web'), path.join(root, 'packages/contracts/src')];
const stale = !fs.existsSync(dist) || Math.max(...sources.map(newestMtime)) > fs.statSync(dist).mtimeMs;
if (stale) {
  console.log('Building the web app…');
  const r = spawnSync('npm', ['run', 'build', '-w', 'apps/web'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
if (!ensureServerBuild(root)) process.exit(1);

const server = spawn(process.execPath, [...SERVER_NODE_ARGS, 'apps/server/dist/main.js'], {
  cwd: root,
  stdio: 'inherit',
  env: { NODE_ENV: 'production', ...process.env },
});
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => server.kill(sig));
server.on('exit', (code) => process.exit(code ?? 0));
