import net from 'node:net';
import path from 'node:path';
import { LIMITS, QUOTAS } from '@aiplatform/contracts';
import { z } from 'zod';
import { DEFAULT_TRUSTED_NETWORKS } from './lib/auth/trusted-networks.js';
import { DEFAULT_MAX_CONNECTIONS_PER_IP } from './lib/http/http-server-settings.js';
import { DEFAULT_MIN_FREE_DISK_MB } from './lib/data/disk-space.js';
import { DEFAULT_ANSWER_LEASE_MS } from './modules/chat/live-answers.js';

/** The only place that reads process.env. */
const EnvSchema = z.object({
  NODE_ENV: z.string().default('production'),
  HOST: z.string().default('0.0.0.0'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z.string().optional(),
  REDIS_URL: z.string().optional(),
  REDIS_PREFIX: z.string().max(64).default('aip:'),
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default('AI Platform <no-reply@localhost>'),
  APP_SECRET: z.string().min(16).optional(),
  ADMIN_EMAIL: z.string().optional(),
  ADMIN_PASSWORD: z.string().optional(),
  OPENAI_API_KEY: z.string().optional(),
  OPENAI_BASE_URL: z.string().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  WEB_DIST_DIR: z.string().optional(),
  RATE_LIMIT_SCALE: z.coerce.number().positive().max(1000).default(1),
  UPSTREAM_TIMEOUT_MS: z.coerce.number().int().min(1000).max(3_600_000).default(LIMITS.upstreamTimeoutMs),
  UPSTREAM_FIRST_BYTE_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(1000)
    .max(3_600_000)
    .default(LIMITS.upstreamFirstByteTimeoutMs),
  // Below 3 s the lease would be renewed more often than partial answers are written (each second).
  ANSWER_LEASE_MS: z.coerce.number().int().min(3000).max(3_600_000).default(DEFAULT_ANSWER_LEASE_MS),
  ANSWERS_IN_PROGRESS_PER_USER: z.coerce.number().int().min(1).max(100_000).default(QUOTAS.answersInProgressPerUser),
  TRUST_PROXY: z.string().default('false').transform(parseTrustProxy),
  TRUSTED_NETWORKS: z.string().default(DEFAULT_TRUSTED_NETWORKS.join(',')).transform(parseList),
  MIN_FREE_DISK_MB: z.coerce.number().int().min(0).max(100_000_000).default(DEFAULT_MIN_FREE_DISK_MB),
  MAX_CONNECTIONS_PER_IP: z.coerce.number().int().min(0).max(1_000_000).default(DEFAULT_MAX_CONNECTIONS_PER_IP),
  // The site's address as people's browsers reach it (scheme, host, optional path prefix).
  PUBLIC_URL: z
    .string()
    .refine(
      (v) => v === '' || (/^https?:\/\/[^\s]+$/i.test(v) && URL.canParse(v)),
      'PUBLIC_URL must be an http(s) address',
    )
    .optional(),
  // Long enough not to be guessed; unset (or empty), /metrics is not served at all.
  METRICS_TOKEN: z
    .string()
    .refine((v) => v === '' || v.length >= 16, 'METRICS_TOKEN needs at least 16 characters')
    .optional(),
});

export interface AppConfig {
  host: string;
  port: number;
  dataDir: string;
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  /** Prefix of every Redis key, so several installations can share one Redis. */
  redisPrefix: string;
  smtpUrl: string | undefined;
  mailFrom: string;
  appSecret: string | undefined;
  adminEmail: string | undefined;
  adminPassword: string | undefined;
  openaiApiKey: string | undefined;
  openaiBaseUrl: string | undefined;
  logLevel: string;
  webDistDir: string;
  /** false, a hop count, or addresses/CIDRs of the proxies (`true` trusts every hop: only behind a proxy that overwrites X-Forwarded-For). */
  trustProxy: boolean | number | string[];
  /** Simultaneous connections one peer address may hold; 0 = no cap (proxies trusted by address are exempt). */
  maxConnectionsPerIp: number;
  /**
   * The site's address as browsers reach it (no trailing slash), for addresses handed to
   * others: single sign-on's redirect URI and SAML endpoints. Unset, each request's own
   * scheme and host are used (X-Forwarded-* only when TRUST_PROXY trusts the proxy).
   */
  publicUrl: string | undefined;
  /** Bearer token that unlocks /metrics; unset, /metrics answers 404. */
  metricsToken: string | undefined;
  /** Below this many free megabytes in DATA_DIR's volume, `/api/ready` reports `disk: false`. */
  minFreeDiskMb: number;
  /**
   * Client addresses (CIDRs) never subject to the account-wide sign-in pause or the
   * per-address failure limit, so an administrator can always sign in from there.
   */
  trustedNetworks: string[];
  /** Multiplies the built-in per-IP request limits and the per-account login-attempt limit. */
  rateLimitScale: number;
  /** Longest a whole AI answer may take. */
  upstreamTimeoutMs: number;
  /** Longest wait for the first piece of an AI answer (a cold local model may be slow). */
  upstreamFirstByteTimeoutMs: number;
  /** Interval of the `: heartbeat` comment on open answer streams. */
  streamHeartbeatMs: number;
  /**
   * How long an instance vouches for an answer it streams (renewed every third of it); a turn
   * left by an instance that died is settled by another within about one and a half of it.
   */
  answerLeaseMs: number;
  /** Answers one account may have being written at once (a load generator standing for many users raises it). */
  answersInProgressPerUser: number;
  /** How often queued alert mails and webhooks are looked at; 0 stops the loop (tests run it by hand). */
  alertDeliveryIntervalMs: number;
}

function parseList(value: string): string[] {
  return value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

/** `false`, `true`, a number of proxy hops (`1`), or a comma list of proxy addresses/CIDRs. */
export function parseTrustProxy(value: string): boolean | number | string[] {
  const v = value.trim();
  if (v === '' || v === 'false') return false;
  if (v === 'true') return true;
  if (/^\d+$/.test(v)) return Number(v);
  return parseList(v);
}

/** Addresses only this machine can reach: a proxy in front of such a HOST runs on the same machine. */
function isLoopbackHost(host: string): boolean {
  const h = host
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1');
  if (h === 'localhost') return true;
  const loopback = new net.BlockList();
  loopback.addSubnet('127.0.0.0', 8, 'ipv4');
  loopback.addAddress('::1', 'ipv6');
  const family = net.isIP(h);
  if (family === 4) return loopback.check(h, 'ipv4');
  if (family === 6) return loopback.check(h, 'ipv6') || /^::ffff:127\./.test(h);
  return false;
}

/**
 * What an operator should hear about the configuration when the server starts. A hop
 * count (or `true`) in TRUST_PROXY believes X-Forwarded-For by position: a client that
 * reaches the instance directly, without the proxy, writes its own header and picks the
 * address it is counted under (rate limits, sign-in throttling, trusted networks). That is
 * safe only when nothing but the proxy can connect, e.g. HOST on loopback.
 */
export function startupWarnings(config: Pick<AppConfig, 'host' | 'trustProxy'>): string[] {
  const byPosition = typeof config.trustProxy === 'number' || config.trustProxy === true;
  if (!byPosition || isLoopbackHost(config.host)) return [];
  return [
    `TRUST_PROXY=${String(config.trustProxy)} trusts X-Forwarded-For by position while HOST=${config.host} also ` +
      'accepts direct connections: a client reaching this instance without the proxy can choose its own address. ' +
      "List the proxies' addresses in TRUST_PROXY instead (e.g. TRUST_PROXY=10.0.0.5 or 10.0.0.0/24), " +
      'or listen on loopback only.',
  ];
}

const here = path.dirname(new URL(import.meta.url).pathname);

/** Parses the environment once; tests build an AppConfig directly with `buildConfig`. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const e = EnvSchema.parse(env);
  return buildConfig({
    host: e.HOST,
    port: e.PORT,
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL || undefined,
    redisUrl: e.REDIS_URL || undefined,
    redisPrefix: e.REDIS_PREFIX,
    smtpUrl: e.SMTP_URL || undefined,
    mailFrom: e.MAIL_FROM,
    appSecret: e.APP_SECRET,
    adminEmail: e.ADMIN_EMAIL || undefined,
    adminPassword: e.ADMIN_PASSWORD || undefined,
    openaiApiKey: e.OPENAI_API_KEY || undefined,
    openaiBaseUrl: e.OPENAI_BASE_URL || undefined,
    logLevel: e.LOG_LEVEL,
    webDistDir: e.WEB_DIST_DIR ? path.resolve(e.WEB_DIST_DIR) : undefined,
    trustProxy: e.TRUST_PROXY,
    trustedNetworks: e.TRUSTED_NETWORKS,
    maxConnectionsPerIp: e.MAX_CONNECTIONS_PER_IP,
    metricsToken: e.METRICS_TOKEN || undefined,
    publicUrl: e.PUBLIC_URL ? e.PUBLIC_URL.replace(/\/+$/, '') : undefined,
    minFreeDiskMb: e.MIN_FREE_DISK_MB,
    rateLimitScale: e.RATE_LIMIT_SCALE,
    upstreamTimeoutMs: e.UPSTREAM_TIMEOUT_MS,
    upstreamFirstByteTimeoutMs: e.UPSTREAM_FIRST_BYTE_TIMEOUT_MS,
    answerLeaseMs: e.ANSWER_LEASE_MS,
    answersInProgressPerUser: e.ANSWERS_IN_PROGRESS_PER_USER,
  });
}

export function buildConfig(partial: Partial<AppConfig> & { dataDir: string }): AppConfig {
  return {
    host: '127.0.0.1',
    port: 3000,
    databaseUrl: undefined,
    redisUrl: undefined,
    redisPrefix: 'aip:',
    smtpUrl: undefined,
    mailFrom: 'AI Platform <no-reply@localhost>',
    appSecret: undefined,
    adminEmail: undefined,
    adminPassword: undefined,
    openaiApiKey: undefined,
    openaiBaseUrl: undefined,
    logLevel: 'silent',
    trustProxy: false,
    trustedNetworks: DEFAULT_TRUSTED_NETWORKS,
    maxConnectionsPerIp: DEFAULT_MAX_CONNECTIONS_PER_IP,
    metricsToken: undefined,
    publicUrl: undefined,
    minFreeDiskMb: DEFAULT_MIN_FREE_DISK_MB,
    rateLimitScale: 1,
    upstreamTimeoutMs: LIMITS.upstreamTimeoutMs,
    upstreamFirstByteTimeoutMs: LIMITS.upstreamFirstByteTimeoutMs,
    streamHeartbeatMs: LIMITS.streamHeartbeatMs,
    answerLeaseMs: DEFAULT_ANSWER_LEASE_MS,
    answersInProgressPerUser: QUOTAS.answersInProgressPerUser,
    alertDeliveryIntervalMs: 5_000,
    ...partial,
    webDistDir: partial.webDistDir ?? path.resolve(here, '../../web/dist'),
  };
}
