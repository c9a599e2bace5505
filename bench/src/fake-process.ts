import { startChildService } from './child-service.js';
import { freePort } from './server-process.js';

export interface FakeProcess {
  /** Base URL to give the server as OPENAI_BASE_URL, e.g. `http://127.0.0.1:4010/v1`. */
  url: string;
  /** Forgets the requests recorded so far (the fake keeps every one in memory). */
  reset(): Promise<void>;
  stop(): Promise<void>;
}

/** The fake OpenAI-compatible upstream (apps/server/test/fake-upstream.ts) in its own process. */
export async function startFakeUpstream(root: string): Promise<FakeProcess> {
  const port = await freePort();
  const child = await startChildService(root, 'apps/server/test/fake-upstream.ts', ['--port', String(port)]);
  return {
    url: child.url,
    reset: async () => {
      await fetch(`${child.url.replace(/\/v1$/, '')}/__reset`, { method: 'POST' });
    },
    stop: () => child.stop(),
  };
}
