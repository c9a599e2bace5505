// Types of scripts/cluster.mjs, for the test that starts a cluster.
import type { ChildProcess } from 'node:child_process';

export const HAPROXY_TEMPLATE: string;
export const COMPILED_SERVER: string[];

export interface ClusterInstance {
  name: string;
  port: number;
  url: string;
  child: ChildProcess;
}

export interface Cluster {
  /** HAProxy's address. */
  url: string;
  instances: ClusterInstance[];
  haproxy: { child: ChildProcess; configFile: string };
  stop(): Promise<void>;
}

export interface ClusterOptions {
  size?: number;
  port?: number;
  /** Address HAProxy binds (empty: every interface). */
  bindAddress?: string;
  databaseUrl: string;
  redisUrl: string;
  redisPrefix?: string;
  appSecret: string;
  dataDir: string;
  /** More environment for the instances. */
  env?: Record<string, string>;
  /** Node arguments that run one instance (the compiled server by default). */
  serverCommand?: string[];
  haproxyBin?: string;
  /** Receives every output line of the instances and HAProxy, prefixed with its name. */
  log?: (line: string) => void;
}

export function findHaproxy(): string | undefined;
export function freePort(): Promise<number>;
export function renderHaproxyConfig(
  template: string,
  opts: { bind: string; servers: { name: string; address: string }[] },
): string;
export function ensureDatabase(databaseUrl: string): Promise<boolean>;
export function readOrCreateSecret(dataDir: string): string;
export function stopChild(child: ChildProcess, graceMs?: number): Promise<void>;
export function waitForOk(url: string, child: ChildProcess, timeoutMs?: number): Promise<void>;
export function startCluster(opts: ClusterOptions): Promise<Cluster>;
