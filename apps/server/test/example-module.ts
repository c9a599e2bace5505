/**
 * An example module: the smallest web app that accepts the platform's single sign-on
 * hand-off. It verifies the `token` query parameter against the platform's public key
 * set (signature, issuer, its own name as audience, `exp`, `iat` and a `jti` not seen
 * before) and greets the user, or answers 401. Only Node built-ins and jose, so it can be
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
/** The platform's tokens live 60 s; a few seconds of clock difference are allowed. */
const MAX_TOKEN_AGE_S = 60;
const CLOCK_TOLERANCE_S = 5;

/**
 * Token ids already used, each kept until its token expires: a hand-off token opens the
 * module once, so a link copied from the address bar, a log or a proxy is worthless.
 * A module running several instances keeps this set in a store they share.
 */
class SeenTokenIds {
  private readonly seen = new Map<string, number>();

  /** False when the id was used before; otherwise remembers it until `exp`. */
  claim(jti: string, exp: number, nowS: number): boolean {
    for (const [id, until] of this.seen) if (until < nowS) this.seen.delete(id);
    if (this.seen.has(jti)) return false;
    this.seen.set(jti, exp + CLOCK_TOLERANCE_S);
    return true;
  }
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

export async function startExampleModule(opts: ExampleModuleOptions): Promise<ExampleModule> {
  // Fetched on first use and cached; a token with an unknown key id makes it fetch again.
  const keys = createRemoteJWKSet(new URL(opts.jwksUrl));
  const used = new SeenTokenIds();

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
          // Without these a token with no end, or one issued long ago, would pass.
          requiredClaims: ['exp', 'iat', 'jti', 'aud'],
          maxTokenAge: MAX_TOKEN_AGE_S,
          clockTolerance: CLOCK_TOLERANCE_S,
        });
        if (typeof payload.jti !== 'string' || !used.claim(payload.jti, payload.exp!, Math.floor(Date.now() / 1000))) {
          return page(res, 401, 'This sign-in link was already used. Open the module again from the platform.');
        }
        const username = typeof payload.username === 'string' ? payload.username : '';
        return page(res, 200, `Hello, ${username}`);
      } catch {
        // Expired, without an end, addressed to another module, signed by another key or altered: all the same to the user.
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
