import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import { freePort } from './free-port.js';

export const REDIS_SERVER_BIN = '/usr/bin/redis-server';
/** Tests that stop or hang Redis run only where a Redis server can be started. */
export const canRunOwnRedis = fs.existsSync(REDIS_SERVER_BIN);

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/**
 * A Redis server of the test's own (never the shared one), without persistence, that
 * can be killed, restarted on the same port, or hung with SIGSTOP.
 */
export class OwnRedis {
  private process: ChildProcess | undefined;
  private constructor(readonly port: number) {}

  static async start(): Promise<OwnRedis> {
    const redis = new OwnRedis(await freePort());
    await redis.start();
    return redis;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  /** Starts the server (again) on its port and waits until it accepts connections. */
  async start(): Promise<void> {
    this.process = spawn(
      REDIS_SERVER_BIN,
      ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: 'ignore' },
    );
    for (let i = 0; i < 100; i += 1) {
      if (await accepts(this.port)) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`redis-server did not start on port ${this.port}`);
  }

  /** Kills the server, as a crash would, and waits until it is gone. */
  async kill(): Promise<void> {
    const child = this.process;
    this.process = undefined;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  }

  /** Freezes the server: connections stay open and nothing answers. */
  hang(): void {
    this.process?.kill('SIGSTOP');
  }

  resume(): void {
    this.process?.kill('SIGCONT');
  }
}
