/**
 * An example module: the smallest web app that accepts the platform's single sign-on
 * hand-off. It verifies the `token` query parameter against the platform's public key
 * set and greets the user, or answers 401. Only Node built-ins and jose, so it can be
 * imported anywhere or started on its own:
 *
 *   node --import tsx apps/server/test/example-module.ts \
 *     --jwks http://127.0.0.1:3000/api/modules/jwks.json --name example --port 4020
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { createRemoteJWKSet, jwtVerify } from 'jose';

export interface ExampleModuleOptions {
  /** The platform's key set, e.g. `http://127.0.0.1:3000/api/modules/jwks.json`. */
  jwksUrl: string;
  /** This module's name on the platform: tokens must be addressed to it. */
  name: string;
  port?: number;
  host?: string;
}

export interface ExampleModule {
  url: string;
  port: number;
  close(): Promise<void>;
}

const ISSUER = 'aiplatform';

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

export async function startExampleModule(opts: ExampleModuleOptions): Promise<ExampleModule> {
  // Fetched on first use and cached; a token with an unknown key id makes it fetch again.
  const keys = createRemoteJWKSet(new URL(opts.jwksUrl));

  const server = http.createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://module.local');
      if (req.method !== 'GET' || url.pathname !== '/') return page(res, 404, 'Not found');
      const token = url.searchParams.get('token');
      if (!token) return page(res, 401, 'Sign in through the platform.');
      try {
        const { payload } = await jwtVerify(token, keys, {
          issuer: ISSUER,
          audience: opts.name,
          algorithms: ['EdDSA'],
        });
        const username = typeof payload.username === 'string' ? payload.username : '';
        return page(res, 200, `Hello, ${username}`);
      } catch {
        // Expired, addressed to another module, signed by another key or altered: all the same to the user.
        return page(res, 401, 'The sign-in link is not valid. Open the module again from the platform.');
      }
    })();
  });
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${opts.host ?? '127.0.0.1'}:${port}/`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function page(res: http.ServerResponse, status: number, text: string) {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
  res.end(
    `<!doctype html><html><head><meta charset="utf-8"><title>Example module</title></head><body><p>${escapeHtml(text)}</p></body></html>`,
  );
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const arg = (flag: string) => {
    const i = process.argv.indexOf(flag);
    return i > 0 ? process.argv[i + 1] : undefined;
  };
  const jwksUrl = arg('--jwks');
  if (!jwksUrl) {
    process.stderr.write('usage: example-module.ts --jwks <platform JWKS URL> [--name example] [--port 4020]\n');
    process.exit(2);
  }
  const mod = await startExampleModule({
    jwksUrl,
    name: arg('--name') ?? 'example',
    port: Number(arg('--port') ?? 4020),
  });
  process.stdout.write(`example module listening on ${mod.url}\n`);
  const stop = () => void mod.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
