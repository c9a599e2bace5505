import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

export interface BundleResult {
  files: string[];
  gzipBytes: number;
  budgetBytes: number;
}

/**
 * The JavaScript a browser must fetch before /login can render: the entry script and
 * its modulepreload links in the built index.html, gzip-compressed as served by a proxy.
 */
export function measureLoginBundle(distDir: string): BundleResult {
  const html = fs.readFileSync(path.join(distDir, 'index.html'), 'utf8');
  const refs = new Set<string>();
  for (const m of html.matchAll(/<script[^>]+src="([^"]+\.js)"/g)) refs.add(m[1]!);
  for (const m of html.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="([^"]+\.js)"/g)) refs.add(m[1]!);
  let gzipBytes = 0;
  for (const ref of refs) {
    const file = path.join(distDir, ref.replace(/^\//, ''));
    gzipBytes += zlib.gzipSync(fs.readFileSync(file), { level: 9 }).length;
  }
  return { files: [...refs], gzipBytes, budgetBytes: 250 * 1024 };
}
