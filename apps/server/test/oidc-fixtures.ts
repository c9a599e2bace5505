import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

/** A person the test identity provider can sign in. */
export interface TestPerson {
  sub: string;
  email: string;
  email_verified: boolean;
  name?: string;
  preferred_username?: string;
  groups?: string[];
}

export interface RunningIdp {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The person the next interaction signs in. */
  signInAs(person: TestPerson): void;
  close(): Promise<void>;
}

function listen(server: http.Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
}

function closeServer(server: http.Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

/**
 * A real OpenID Connect provider (oidc-provider) on a random loopback port, with one client
 * whose redirect URIs are given. Its interaction step signs in whoever `signInAs` named and
 * grants every scope at once, so a browser is not needed: a client following redirects (and
 * keeping cookies) goes from the authorization request to the callback. With `loginForm`,
 * the interaction is a sign-in page instead, where a person (by username) signs in as a
 * browser user would.
 */
export async function startTestIdp(
  redirectUris: string[],
  options: { loginForm?: { title: string; people: TestPerson[] } } = {},
): Promise<RunningIdp> {
  const people = new Map<string, TestPerson>();
  let next: TestPerson | undefined;
  const server = http.createServer();
  const port = await listen(server);
  const issuer = `http://127.0.0.1:${port}`;
  const clientId = `client-${crypto.randomBytes(4).toString('hex')}`;
  const clientSecret = crypto.randomBytes(24).toString('base64url');
  const provider = new Provider(issuer, {
    clients: [{ client_id: clientId, client_secret: clientSecret, redirect_uris: redirectUris }],
    cookies: { keys: [crypto.randomBytes(16).toString('hex')] },
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['name', 'preferred_username'],
      groups: ['groups'],
    },
    scopes: ['openid', 'email', 'profile', 'groups'],
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    findAccount: (_ctx, sub) => {
      const person = people.get(sub);
      return person ? { accountId: sub, claims: () => ({ ...person }) } : undefined;
    },
  });
  provider.on('server_error', (_ctx, err) => console.error('test idp', err));
  const callback = provider.callback();
  const form = options.loginForm;
  server.on('request', (req, res) => {
    if (!req.url?.startsWith('/interaction/')) return void callback(req, res);
    if (form && req.method === 'GET') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      return void res.end(loginPage(form.title, req.url));
    }
    void (async () => {
      const details = await provider.interactionDetails(req, res);
      const typed = form ? await formField(req, 'login') : null;
      const person = form ? form.people.find((p) => p.preferred_username === typed) : next;
      if (!person) throw new Error(form ? 'no such person' : 'signInAs() first');
      people.set(person.sub, person);
      const grant = new provider.Grant({ accountId: person.sub, clientId });
      grant.addOIDCScope('openid email profile groups');
      const grantId = await grant.save();
      await provider.interactionFinished(
        req,
        res,
        { login: { accountId: person.sub }, consent: { grantId } },
        { mergeWithLastSubmission: false },
      );
      void details;
    })().catch((err: unknown) => {
      res.statusCode = 500;
      res.end(String(err));
    });
  });
  return {
    issuer,
    clientId,
    clientSecret,
    signInAs: (person) => {
      next = person;
    },
    close: () => closeServer(server),
  };
}

/** The test provider's own sign-in page: a username and a button, nothing else to it. */
function loginPage(title: string, action: string): string {
  const escaped = title.replace(/[<>&"]/g, '');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escaped}</title></head>
<body><main><h1>${escaped}</h1><form method="post" action="${action}">
<label for="login">Username</label> <input id="login" name="login" autocomplete="username">
<button type="submit">Sign in</button></form></main></body></html>`;
}

/** One field of a posted form. */
function formField(req: http.IncomingMessage, name: string): Promise<string | null> {
  return new Promise((resolve, reject) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => resolve(new URLSearchParams(body).get(name)));
    req.on('error', reject);
  });
}

/** What the hand-made issuer's token endpoint gets wrong on purpose. */
export type TokenFault = 'none' | 'audience' | 'nonce' | 'expired' | 'signature' | 'issuer';

export interface FakeIssuer {
  issuer: string;
  clientId: string;
  fault: TokenFault;
  /** Whom the next authorization request signs in (read when its code is issued). */
  person: TestPerson;
  /**
   * Picks the person for one authorization request instead of `person`, so that sign-ins of
   * different people can run at once (`person` is one field for all of them).
   */
  personFor?: (authorize: URL) => TestPerson | undefined;
  /** Each request answered: its path and the time from its arrival to its response's end (ms). */
  handled: { path: string; ms: number }[];
  close(): Promise<void>;
}

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/**
 * A minimal OpenID Connect issuer written for the test, whose ID tokens can be wrong in one
 * chosen way (another audience, another nonce, expired, a signature by another key, another
 * issuer), to show each is refused. Its authorization endpoint answers at once with a code.
 * It notes how long it took over each request, for the benchmark that leaves its time out.
 */
export async function startFakeIssuer(): Promise<FakeIssuer> {
  const signing = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
  const stranger = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
  const kid = 'k1';
  const codes = new Map<string, { nonce: string; challenge: string; person: TestPerson }>();
  const server = http.createServer();
  const port = await listen(server);
  const issuer = `http://127.0.0.1:${port}`;
  const state: FakeIssuer = {
    issuer,
    clientId: 'fake-client',
    fault: 'none',
    person: { sub: 'fake-1', email: 'fake@corp.example', email_verified: true },
    handled: [],
    close: () => closeServer(server),
  };
  const json = (res: http.ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const idToken = (nonce: string, person: TestPerson) => {
    const now = Math.floor(Date.now() / 1000);
    const claims = {
      ...person,
      iss: state.fault === 'issuer' ? 'http://127.0.0.1:1' : issuer,
      aud: state.fault === 'audience' ? 'someone-else' : state.clientId,
      nonce: state.fault === 'nonce' ? 'another-nonce' : nonce,
      iat: state.fault === 'expired' ? now - 7200 : now,
      exp: state.fault === 'expired' ? now - 3600 : now + 300,
    };
    const data = `${b64({ alg: 'RS256', kid, typ: 'JWT' })}.${b64(claims)}`;
    const key = state.fault === 'signature' ? stranger.privateKey : signing.privateKey;
    return `${data}.${crypto.sign('sha256', Buffer.from(data), key).toString('base64url')}`;
  };
  server.on('request', (req, res) => {
    const url = new URL(req.url ?? '/', issuer);
    const arrived = performance.now();
    res.on('finish', () => state.handled.push({ path: url.pathname, ms: performance.now() - arrived }));
    if (url.pathname === '/.well-known/openid-configuration') {
      return json(res, 200, {
        issuer,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        jwks_uri: `${issuer}/jwks`,
        response_types_supported: ['code'],
        subject_types_supported: ['public'],
        id_token_signing_alg_values_supported: ['RS256'],
        token_endpoint_auth_methods_supported: ['none', 'client_secret_basic'],
      });
    }
    if (url.pathname === '/jwks') {
      return json(res, 200, {
        keys: [{ ...signing.publicKey.export({ format: 'jwk' }), kid, alg: 'RS256', use: 'sig' }],
      });
    }
    if (url.pathname === '/authorize') {
      const code = crypto.randomBytes(16).toString('base64url');
      codes.set(code, {
        nonce: url.searchParams.get('nonce') ?? '',
        challenge: url.searchParams.get('code_challenge') ?? '',
        person: state.personFor?.(url) ?? state.person,
      });
      const back = new URL(url.searchParams.get('redirect_uri') ?? '');
      back.searchParams.set('code', code);
      back.searchParams.set('state', url.searchParams.get('state') ?? '');
      res.writeHead(302, { location: back.href });
      return void res.end();
    }
    if (url.pathname === '/token' && req.method === 'POST') {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        const form = new URLSearchParams(body);
        const issued = codes.get(form.get('code') ?? '');
        codes.delete(form.get('code') ?? '');
        const verifier = form.get('code_verifier') ?? '';
        const challenge = crypto.createHash('sha256').update(verifier).digest('base64url');
        if (!issued || issued.challenge !== challenge) return json(res, 400, { error: 'invalid_grant' });
        json(res, 200, {
          access_token: crypto.randomBytes(16).toString('base64url'),
          token_type: 'Bearer',
          expires_in: 300,
          id_token: idToken(issued.nonce, issued.person),
        });
      });
      return;
    }
    json(res, 404, { error: 'not_found' });
  });
  return state;
}

/**
 * A browser reduced to what a sign-in needs: it follows redirects one at a time and keeps
 * cookies per host. Addresses on `appOrigin` are handed to `app` (the server under test,
 * reached in process); the rest go over the network to the identity provider.
 */
export class TestBrowser {
  private readonly cookies = new Map<string, Map<string, string>>();

  constructor(
    private readonly appOrigin: string,
    private readonly app: (path: string) => Promise<{ status: number; location?: string }>,
  ) {}

  /**
   * Follows redirects from `start` until `stop` says so. Each call is a fresh browser: no
   * session at the identity provider carries over, so its sign-in step runs every time.
   */
  async follow(start: string, stop: (url: URL) => boolean): Promise<URL> {
    this.cookies.clear();
    let url = new URL(start, this.appOrigin);
    for (let hop = 0; hop < 20; hop++) {
      if (stop(url)) return url;
      const location = await this.get(url);
      if (!location) throw new Error(`no redirect from ${url.href}`);
      url = new URL(location, url);
    }
    throw new Error('too many redirects');
  }

  private async get(url: URL): Promise<string | undefined> {
    if (url.origin === this.appOrigin) return (await this.app(`${url.pathname}${url.search}`)).location;
    const jar = this.cookies.get(url.host) ?? new Map<string, string>();
    this.cookies.set(url.host, jar);
    const res = await fetch(url, {
      redirect: 'manual',
      headers: { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') },
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair!.indexOf('=');
      jar.set(pair!.slice(0, eq).trim(), pair!.slice(eq + 1).trim());
    }
    await res.arrayBuffer();
    return res.headers.get('location') ?? undefined;
  }
}
