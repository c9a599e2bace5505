import http from 'node:http';
import { type FakeIssuer, type TestPerson, startFakeIssuer } from '../../apps/server/test/oidc-fixtures.js';
import { ADMIN } from './admin-users-seed.js';
import { routeTiming } from './admin-users.js';
import { call, login } from './api.js';
import { cpuSeconds } from './proc-stats.js';
import { startServer } from './server-process.js';
import { median, ms, percentile, type Row, verdict } from './stats.js';

/*
 * Single sign-on with OpenID Connect, against an issuer in this process that answers at once
 * (the fake issuer of the server's tests). One sign-in is what a browser does: the start
 * redirect, the issuer's authorization endpoint, the callback (which calls the issuer's token
 * endpoint) and the exchange of the one-time code for a session. The callback's time is
 * counted without the issuer's: what the issuer took over each of its requests, from arrival
 * to the end of its answer, is taken off.
 */

const SLUG = 'bench-sso';
const CALLBACK_ROUTE = '/api/auth/sso/:slug/callback';
const EXCHANGE_ROUTE = '/api/auth/sso/exchange';

interface Answer {
  status: number;
  location: string | undefined;
  body: string;
  ms: number;
}

/** One request on a kept-alive connection, timed from the request to the last byte; redirects are not followed. */
function request(url: string, agent: http.Agent, body?: unknown): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const started = performance.now();
    const req = http.request(
      url,
      {
        method: payload === undefined ? 'GET' : 'POST',
        agent,
        headers: payload === undefined ? {} : { 'content-type': 'application/json' },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            location: res.headers.location,
            body: Buffer.concat(chunks).toString('utf8'),
            ms: performance.now() - started,
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

function redirectOf(what: string, a: Answer): string {
  if (a.status !== 302 || !a.location) throw new Error(`${what}: ${a.status} ${a.body.slice(0, 200)}`);
  return a.location;
}

interface FlowTimes {
  /** The callback's elapsed time less the issuer's time over its requests during it. */
  callbackMs: number;
  /** The issuer's time during the callback (its token endpoint; the first time also discovery and keys). */
  issuerMs: number;
  exchangeMs: number;
  /** From the start request to the session. */
  flowMs: number;
}

/** Sign-ins of made-up people through the fake issuer, each flow told apart by its login_hint. */
class SsoFlows {
  private serial = 0;
  private readonly people = new Map<string, TestPerson>();

  constructor(
    private readonly apiUrl: string,
    private readonly fake: FakeIssuer,
    private readonly agent: http.Agent,
  ) {
    fake.personFor = (authorize) => this.people.get(authorize.searchParams.get('login_hint') ?? '');
  }

  /** Someone the platform has never seen: their first sign-in creates their account. */
  newPerson(): TestPerson {
    this.serial += 1;
    const id = `${this.serial}_${Date.now().toString(36)}`;
    const person = { sub: `bench-${id}`, email: `sso_${id}@bench.example.com`, email_verified: true };
    this.people.set(person.sub, person);
    return person;
  }

  async signIn(person: TestPerson): Promise<FlowTimes> {
    const began = performance.now();
    const start = await request(`${this.apiUrl}/api/auth/sso/${SLUG}/start`, this.agent);
    const authorize = new URL(redirectOf('start', start));
    if (authorize.origin !== this.fake.issuer) throw new Error(`start: redirected to ${authorize.origin}`);
    authorize.searchParams.set('login_hint', person.sub);
    const back = redirectOf('authorize', await request(authorize.href, this.agent));
    const seen = this.fake.handled.length;
    const callback = await request(back, this.agent);
    const landing = redirectOf('callback', callback);
    // Only meaningful when flows run one at a time: then every request the issuer answered
    // meanwhile was this callback's.
    const issuerMs = this.fake.handled
      .slice(seen)
      .filter((h) => h.path !== '/authorize')
      .reduce((sum, h) => sum + h.ms, 0);
    if (!landing.startsWith('/sso/complete#')) throw new Error(`callback: landed on ${landing}`);
    const code = new URLSearchParams(landing.slice(landing.indexOf('#') + 1)).get('code');
    const exchange = await request(`${this.apiUrl}${EXCHANGE_ROUTE}`, this.agent, { code });
    if (exchange.status !== 200) throw new Error(`exchange: ${exchange.status} ${exchange.body.slice(0, 200)}`);
    const signedIn = (JSON.parse(exchange.body) as { data: { user: { email: string } } }).data.user.email;
    if (signedIn !== person.email) throw new Error(`exchange: signed in ${signedIn}, not ${person.email}`);
    return {
      callbackMs: callback.ms - issuerMs,
      issuerMs,
      exchangeMs: exchange.ms,
      flowMs: performance.now() - began,
    };
  }
}

export interface SsoOptions {
  root: string;
  /** Sign-in pairs measured one at a time (a first sign-in, then the same person again). */
  samples: number;
  warmup: number;
  /** Sign-ins in progress at once for the throughput. */
  concurrency: number;
  seconds: number;
}

/** Starts its own server (with the super administrator), the issuer and the provider, and measures. */
export async function measureSso(o: SsoOptions): Promise<Row[]> {
  const server = await startServer(o.root, { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password });
  const fake = await startFakeIssuer();
  const agent = new http.Agent({ keepAlive: true });
  try {
    const admin = await login(server.url, ADMIN.email, ADMIN.password);
    await call(
      server.url,
      'POST',
      '/api/admin/identity-providers',
      {
        type: 'oidc',
        slug: SLUG,
        name: 'Bench SSO',
        jit: true,
        config: { issuer: fake.issuer, client_id: fake.clientId },
      },
      admin.accessToken as string,
    );
    const flows = new SsoFlows(server.url, fake, agent);
    const rows = await sequential(server.url, flows, fake, agent, o);
    rows.push(await throughput(flows, fake, server.pid, o));
    return rows;
  } finally {
    agent.destroy();
    await fake.close();
    await server.stop();
  }
}

/** Median and p95 under `name`, for latest.json (the samples themselves are not kept). */
const stats = (name: string, values: number[]) => ({
  [`${name}Median`]: median(values),
  [`${name}P95`]: percentile(values, 95),
});
const summary = (values: number[]) => `median ${ms(median(values), 1)}, p95 ${ms(percentile(values, 95), 1)}`;

/**
 * Pairs of sign-ins one at a time: a new person (account created), then the same person
 * again, so both kinds meet the same load of the machine. /api/health, timed the same way,
 * is the floor; fastify's own timings (/metrics) check the client's figures.
 */
async function sequential(
  apiUrl: string,
  flows: SsoFlows,
  fake: FakeIssuer,
  agent: http.Agent,
  o: SsoOptions,
): Promise<Row[]> {
  const health: number[] = [];
  for (let i = 0; i < o.samples + o.warmup; i++) {
    const a = await request(`${apiUrl}/api/health`, agent);
    if (i >= o.warmup) health.push(a.ms);
  }
  for (let i = 0; i < o.warmup; i++) {
    const person = flows.newPerson();
    await flows.signIn(person);
    await flows.signIn(person);
  }
  fake.handled.length = 0;
  const before = {
    callback: await routeTiming(apiUrl, CALLBACK_ROUTE),
    exchange: await routeTiming(apiUrl, EXCHANGE_ROUTE),
  };
  const first: FlowTimes[] = [];
  const returning: FlowTimes[] = [];
  for (let i = 0; i < o.samples; i++) {
    const person = flows.newPerson();
    first.push(await flows.signIn(person));
    returning.push(await flows.signIn(person));
  }
  const after = {
    callback: await routeTiming(apiUrl, CALLBACK_ROUTE),
    exchange: await routeTiming(apiUrl, EXCHANGE_ROUTE),
  };
  const serverMean = (k: 'callback' | 'exchange') =>
    ((after[k].sum - before[k].sum) / Math.max(1, after[k].count - before[k].count)) * 1000;
  const all = [...first, ...returning];
  const mean = (v: number[]) => v.reduce((s, x) => s + x, 0) / Math.max(1, v.length);
  const issuerMean = mean(all.map((f) => f.issuerMs));
  const floor = `/api/health ${ms(median(health), 1)}`;
  const n = `${o.samples} sequential`;
  const callbackRow = (what: string, times: FlowTimes[]): Row => {
    const callback = times.map((t) => t.callbackMs);
    const issuer = times.map((t) => t.issuerMs);
    return {
      what: `SSO callback, ${what}: server time without the provider (${n})`,
      result:
        `${summary(callback)} (the provider's token endpoint took ${ms(median(issuer), 1)} ` +
        `median, not counted; ${floor})`,
      budget: '≤ 50 ms median',
      met: verdict(median(callback) <= 50),
      data: { ...stats('callbackMs', callback), ...stats('issuerMs', issuer), healthMedianMs: median(health) },
    };
  };
  const exchange = all.map((t) => t.exchangeMs);
  return [
    callbackRow('first sign-in (account created)', first),
    callbackRow('returning person', returning),
    {
      what: `SSO code exchange, POST ${EXCHANGE_ROUTE} (${o.samples * 2} sequential, both kinds)`,
      result:
        `${summary(exchange)} (first sign-ins ${ms(median(first.map((t) => t.exchangeMs)), 1)}, returning ` +
        `${ms(median(returning.map((t) => t.exchangeMs)), 1)} median); fastify's own means: callback ` +
        `${ms(serverMean('callback') - issuerMean, 1)} without the provider, exchange ${ms(serverMean('exchange'), 1)}`,
      budget: '≤ 50 ms median',
      met: verdict(median(exchange) <= 50),
      data: {
        ...stats('exchangeMs', exchange),
        serverCallbackMeanMs: serverMean('callback'),
        issuerMeanMs: issuerMean,
      },
    },
  ];
}

/** `concurrency` sign-ins at a time, each of a new person, for `seconds`; every failure counted. */
async function throughput(flows: SsoFlows, fake: FakeIssuer, pid: number, o: SsoOptions): Promise<Row> {
  fake.handled.length = 0;
  const times: number[] = [];
  let errors = 0;
  let firstError: string | undefined;
  const cpuBefore = cpuSeconds(pid);
  const began = performance.now();
  const deadline = began + o.seconds * 1000;
  const worker = async () => {
    while (performance.now() < deadline) {
      try {
        times.push((await flows.signIn(flows.newPerson())).flowMs);
      } catch (err) {
        errors += 1;
        firstError ??= err instanceof Error ? err.message : String(err);
      }
    }
  };
  await Promise.all(Array.from({ length: o.concurrency }, worker));
  const elapsed = (performance.now() - began) / 1000;
  const cpuPerFlow = ((cpuSeconds(pid) - cpuBefore) * 1000) / Math.max(1, times.length);
  if (firstError) console.error(`bench: sso throughput: ${errors} errors, the first: ${firstError}`);
  return {
    what: `SSO sign-in throughput, ${o.concurrency} at once, each a new person (whole flow, ${o.seconds} s)`,
    result:
      `${(times.length / elapsed).toFixed(1)} sign-ins/s (${times.length} in ${elapsed.toFixed(1)} s), ${errors} errors; ` +
      `flow ${summary(times)}; server CPU ${ms(cpuPerFlow, 1)} per sign-in`,
    budget: 'no errors',
    met: verdict(errors === 0 && times.length > 0),
    data: { completed: times.length, errors, firstError, seconds: elapsed, cpuPerFlowMs: cpuPerFlow },
  };
}
