import { spawn } from 'node:child_process';
import { stopChild } from './server-process.js';

export interface ChildService {
  /** The URL the child printed as `listening on <url>`. */
  url: string;
  pid: number;
  stop(): Promise<void>;
}

/**
 * Runs a TypeScript script of the project in its own process (so that neither the server nor
 * the load generator pays for its work) and waits until it prints `listening on <url>`.
 */
export async function startChildService(root: string, script: string, args: string[]): Promise<ChildService> {
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${script} did not start`)), 30_000);
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
      reject(new Error(`${script} exited with ${code}`));
    });
  }).catch(async (err: unknown) => {
    await stopChild(child);
    throw err;
  });
  child.stdout.resume();
  return { url, pid: child.pid as number, stop: () => stopChild(child) };
}
