import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { type ChildService, startChildService } from './child-service.js';
import { freePort } from './server-process.js';

/*
 * The physical floor of a read: a bare node:http server answering every request with the
 * same bytes from memory — no routing, authentication, SQL or serialization. Loaded the
 * same way as a route of the platform, it shows what this machine and load generator
 * allow for a response of that size, so the route's throughput is read as a share of it.
 */

/** Serves the content of `file` as `contentType` to every request, on keep-alive connections. */
export function serveStaticBody(port: number, file: string, contentType: string): Promise<http.Server> {
  const body = fs.readFileSync(file);
  const headers = { 'content-type': contentType, 'content-length': String(body.length) };
  const server = http.createServer((_req, res) => {
    res.writeHead(200, headers);
    res.end(body);
  });
  server.keepAliveTimeout = 65_000;
  return new Promise((resolve) => server.listen(port, '127.0.0.1', 2048, () => resolve(server)));
}

/** The floor server in its own process, as the platform runs in its own. */
export async function startStaticBody(root: string, file: string, contentType: string): Promise<ChildService> {
  const port = await freePort();
  return startChildService(root, 'bench/src/static-body.ts', [
    '--port',
    String(port),
    '--file',
    file,
    '--type',
    contentType,
  ]);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const arg = (name: string) => process.argv[process.argv.indexOf(name) + 1] as string;
  const server = await serveStaticBody(Number(arg('--port')), arg('--file'), arg('--type'));
  process.stdout.write(`static body listening on http://127.0.0.1:${(server.address() as AddressInfo).port}\n`);
  const stop = () => process.exit(0);
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
