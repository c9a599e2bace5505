import { buildApp } from '../../apps/server/src/app.js';
import { buildConfig } from '../../apps/server/src/config.js';

/*
 * The server built in this process on a given data dir (migrations and bootstrap run as
 * on a real start) and called through fastify.inject: no socket, so what is timed is the
 * server's own work. Used where the figure is a server time per request, not throughput.
 */

export interface Timed {
  status: number;
  body: string;
  serverMs: number;
  injectMs: number;
  cpuMs: number;
}

export interface InjectApp {
  /**
   * GET `path` as the holder of `token`: the status, the body, fastify's elapsed time of
   * the request (`serverMs`), the whole inject call around it (`injectMs`) and the CPU
   * time this process spent meanwhile (`cpuMs`: unlike the others, not stretched when
   * other processes share the cores).
   */
  get(path: string, token?: string): Promise<Timed>;
  login(account: string, password: string): Promise<string>;
  close(): Promise<void>;
}

export async function startInjectApp(dataDir: string, admin: { email: string; password: string }): Promise<InjectApp> {
  const { app } = await buildApp({
    config: buildConfig({
      dataDir,
      adminEmail: admin.email,
      adminPassword: admin.password,
      logLevel: 'warn',
      rateLimitScale: 1000,
    }),
  });
  // fastify's own measure of each request (the figure /metrics reports), by request id.
  const elapsed = new Map<string, number>();
  app.addHook('onResponse', async (req, reply) => {
    elapsed.set(req.id, reply.elapsedTime);
  });
  await app.ready();
  let serial = 0;
  return {
    async get(path, token) {
      const id = `bench-${++serial}`;
      const headers: Record<string, string> = { 'x-request-id': id };
      if (token) headers.authorization = `Bearer ${token}`;
      const cpu = process.cpuUsage();
      const started = performance.now();
      const res = await app.inject({ method: 'GET', url: path, headers });
      const injectMs = performance.now() - started;
      const used = process.cpuUsage(cpu);
      // A request from a socket arrives in a turn of the event loop of its own. Injected one
      // after another, they would all run in one turn: the callbacks each leaves for the next
      // turn (setImmediate) would pile up, every request's objects with them, and the
      // growing heap would make collections slow enough to show in the tail of the timings.
      await new Promise((resolve) => setImmediate(resolve));
      const cpuMs = (used.user + used.system) / 1000;
      const serverMs = elapsed.get(id);
      elapsed.delete(id);
      if (serverMs === undefined) throw new Error(`GET ${path}: no server timing recorded`);
      return { status: res.statusCode, body: res.body, serverMs, injectMs, cpuMs };
    },
    async login(account, password) {
      const res = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { account, password } });
      if (res.statusCode !== 200) throw new Error(`login ${account}: ${res.statusCode} ${res.body.slice(0, 200)}`);
      return res.json<{ data: { accessToken: string } }>().data.accessToken;
    },
    close: () => app.close(),
  };
}
