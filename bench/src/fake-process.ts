import { spawn } from 'node:child_process';
import { freePort, stopChild } from './server-process.js';

export interface FakeProcess {
  /** Base URL to give the server as OPENAI_BASE_URL, e.g. `http://127.0.0.1:4010/v1`. */
  url: string;
  /** Forgets the requests recorded so far (the fake keeps every one in memory). */
  reset(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * The fake OpenAI-compatible upstream (apps/server/test/fake-upstream.ts) in its own
 * process, so that neither the server nor the load generator pays for its work.
 */
export async function startFakeUpstream(root: string): Promise<FakeProcess> {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'apps/server/test/fake-upstream.ts', '--port', String(port)],
    {
      cwd: root,
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('fake upstream did not start')), 30_000);
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      const m = /listening on (\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1] as string);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`fake upstream exited with ${code}`));
    });
  }).catch(async (err: unknown) => {
    await stopChild(child);
    throw err;
  });
  child.stdout.resume();
  return {
    url,
    reset: async () => {
      await fetch(`${url.replace(/\/v1$/, '')}/__reset`, { method: 'POST' });
    },
    stop: () => stopChild(child),
  };
}
