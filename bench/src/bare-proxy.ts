import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { type ChildService, startChildService } from './child-service.js';
import { freePort } from './server-process.js';

/*
 * The physical floor of a relay: an HTTP proxy that does nothing but pass requests to the
 * upstream and the response bytes back, on keep-alive connections, with Node's own http
 * module. Whatever the platform adds beyond this proxy is the platform's own cost (checks,
 * credits, parsing, persistence); what this proxy adds is the cost of any extra hop.
 */

/** Serves on `port`, forwarding every request to the origin of `upstream` with the same path. */
export function serveBareProxy(port: number, upstream: string): Promise<http.Server> {
  const origin = new URL(upstream);
  const agent = new http.Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY });
  const server = http.createServer((req, res) => {
    const forward = http.request(
      { host: origin.hostname, port: origin.port, path: req.url, method: req.method, headers: req.headers, agent },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on('error', () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    // A client that goes away closes the upstream request too, as the platform does.
    res.on('close', () => forward.destroy());
    req.pipe(forward);
  });
  server.keepAliveTimeout = 65_000;
  return new Promise((resolve) => server.listen(port, '127.0.0.1', 2048, () => resolve(server)));
}

/** The proxy in its own process, so that its CPU and memory can be read like the server's. */
export async function startBareProxy(root: string, upstream: string): Promise<ChildService> {
  const port = await freePort();
  const child = await startChildService(root, 'bench/src/bare-proxy.ts', [
    '--port',
    String(port),
    '--upstream',
    upstream,
  ]);
  // Same base path as the upstream (e.g. `/v1`), so callers swap only the origin.
  return { ...child, url: `${child.url}${new URL(upstream).pathname.replace(/\/$/, '')}` };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const arg = (name: string) => process.argv[process.argv.indexOf(name) + 1] as string;
  const server = await serveBareProxy(Number(arg('--port')), arg('--upstream'));
  process.stdout.write(`bare proxy listening on http://127.0.0.1:${(server.address() as AddressInfo).port}\n`);
  const stop = () => process.exit(0);
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
