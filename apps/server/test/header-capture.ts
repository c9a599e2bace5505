import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface CapturedRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
}

export interface HeaderCapture {
  /** `http://127.0.0.1:<port>`: its own origin, apart from every other capture. */
  base: string;
  requests: CapturedRequest[];
  /** Whether any request carried this text in any header (a key in whatever header its provider uses). */
  sawInHeaders(text: string): boolean;
  close(): Promise<void>;
}

/**
 * A server standing for a model endpoint that records every request it receives, with
 * its headers; by default it answers 401 with an error body, or as `answer` decides.
 */
export async function startHeaderCapture(
  answer?: (req: http.IncomingMessage, res: http.ServerResponse) => void,
): Promise<HeaderCapture> {
  const requests: CapturedRequest[] = [];
  const server = http.createServer((req, res) => {
    requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
    req.resume();
    if (answer) return answer(req, res);
    res.writeHead(401, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { message: 'who are you', type: 'invalid_request_error' } }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    sawInHeaders: (text) => requests.some((r) => JSON.stringify(r.headers).includes(text)),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
